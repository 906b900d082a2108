import { PROFILE_LIST } from "@quad/contracts";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { TagListField } from "./tag-list-field";
import { TAG_LIMITS } from "./texts";

function Interests({ initial }: { initial: string[] }) {
  const [values, setValues] = useState(initial);
  return <TagListField label="Interests" placeholder="Something you love doing" values={values} onChange={setValues} />;
}

const many = (n: number) => Array.from({ length: n }, (_, i) => `Interest ${i + 1}`);

describe("a list of entries at its limits", () => {
  it("says when the list is full, and the field opens again once one is removed", async () => {
    const user = userEvent.setup();
    render(<Interests initial={many(PROFILE_LIST.maxItems - 1)} />);
    const input = screen.getByRole("textbox", { name: "Interests" });
    await user.type(input, "Climbing{Enter}");
    expect(screen.getByRole("status").textContent).toBe(TAG_LIMITS.full("Interests"));
    expect(input).toHaveProperty("disabled", true);
    await user.click(screen.getByRole("button", { name: "Remove Climbing" }));
    expect(screen.queryByRole("status")).toBeNull();
    expect(input).toHaveProperty("disabled", false);
  });

  it("keeps a pasted entry whole and says it is too long, instead of cutting it", async () => {
    const user = userEvent.setup();
    render(<Interests initial={[]} />);
    const input = screen.getByRole<HTMLInputElement>("textbox", { name: "Interests" });
    const long = "Competitive synchronized underwater basket weaving";
    await user.click(input);
    await user.paste(long);
    expect(input.value).toBe(long);
    expect(screen.getByRole("status").textContent).toBe(TAG_LIMITS.tooLong);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("button", { name: "Add to Interests" })).toHaveProperty("disabled", true);
    await user.keyboard("{Enter}");
    expect(screen.queryByRole("list", { name: "Interests" })).toBeNull();
    // Shortened to the limit: the warning goes and it can be added.
    await user.clear(input);
    await user.type(input, long.slice(0, PROFILE_LIST.maxLength));
    expect(screen.queryByRole("status")).toBeNull();
    await user.keyboard("{Enter}");
    expect(screen.getByRole("list", { name: "Interests" }).textContent).toContain(
      long.slice(0, PROFILE_LIST.maxLength),
    );
  });
});
