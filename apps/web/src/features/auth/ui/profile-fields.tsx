import type { ReactNode } from "react";
import { TextField } from "./fields";

/** Puts one @ in front of whatever is typed (docs/product.md: auto-prefixed); an emptied field stays empty. */
export function withAtPrefix(input: string): string {
  const bare = input.replace(/^@+/, "").replace(/\s+/g, "");
  return bare ? `@${bare}` : "";
}

export interface ProfileFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: ReactNode;
  disabled?: boolean;
}

/** The first name, as sign-up asks it and settings edits it. */
export function FirstNameField({ value, onChange, error, hint, disabled }: ProfileFieldProps) {
  return (
    <TextField
      label="First name"
      name="firstName"
      autoComplete="given-name"
      autoCapitalize="words"
      enterKeyHint="next"
      placeholder="Your first name"
      maxLength={50}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      disabled={disabled}
      hint={hint}
    />
  );
}

/** The Instagram handle with its @ added as it is typed, as sign-up asks it and settings edits it. */
export function InstagramField({ value, onChange, error, hint, disabled }: ProfileFieldProps) {
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
      value={value}
      onChange={(event) => onChange(withAtPrefix(event.target.value))}
      error={error}
      disabled={disabled}
      hint={hint}
    />
  );
}
