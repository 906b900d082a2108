import { TextField } from "../../ui/fields";
import type { StepProps } from "./step-props";

/** Puts one @ in front of whatever is typed (spec §5: auto-prefixed); an emptied field stays empty. */
export function withAtPrefix(input: string): string {
  const bare = input.replace(/^@+/, "").replace(/\s+/g, "");
  return bare ? `@${bare}` : "";
}

export function InstagramStep({ values, errors, onChange, disabled }: StepProps) {
  return (
    <TextField
      label="Instagram"
      name="instagramHandle"
      autoComplete="off"
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      enterKeyHint="next"
      placeholder="@yourhandle"
      value={values.instagramHandle}
      onChange={(event) => onChange({ instagramHandle: withAtPrefix(event.target.value) })}
      error={errors.instagramHandle}
      disabled={disabled}
      hint="It stays blurred. Only someone you vote for can unlock it."
    />
  );
}
