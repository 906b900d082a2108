import { CONTROL_CHARACTERS, VALIDATION } from "@quad/contracts";
import { AppError } from "../errors";

/**
 * Every procedure's input, before its schema: a string or key holding a
 * control character answers 400 naming the field. Typed fields refuse them
 * in their own schemas too (and line breaks where they are one line); this
 * catches the rest (tokens, secrets, card numbers), so no NUL reaches
 * Postgres, which refuses it in text with an error that would be a 500.
 */
export function controlCharacterError(input: unknown): AppError | undefined {
  const path = controlCharacterPath(input);
  if (path === undefined) return undefined;
  return new AppError("BAD_REQUEST", VALIDATION.controlCharacters, {
    fieldErrors: { [path || "_"]: [VALIDATION.controlCharacters] },
  });
}

/** The dotted path of the first string or key with a control character ("" for the input itself), or undefined. */
function controlCharacterPath(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return CONTROL_CHARACTERS.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = controlCharacterPath(item, join(path, String(i)));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (CONTROL_CHARACTERS.test(key)) return path;
    const found = controlCharacterPath(item, join(path, key));
    if (found !== undefined) return found;
  }
  return undefined;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** JSON's objects, not a Blob or Date a multipart route hands on. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
