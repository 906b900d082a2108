import { CONTROL_CHARACTERS, ERROR_MESSAGES, MAX_INPUT_DEPTH, VALIDATION } from "@quad/contracts";
import { AppError } from "../errors";

/**
 * Every procedure's input, before its schema: a string or key holding a
 * control character answers 400 naming the field. Typed fields refuse them
 * in their own schemas too (and line breaks where they are one line); this
 * catches the rest (tokens, secrets, card numbers), so no NUL reaches
 * Postgres, which refuses it in text with an error that would be a 500.
 * Input nested deeper than MAX_INPUT_DEPTH answers 400 too: no schema reads
 * that deep, and nothing after this should have to walk it.
 */
export function controlCharacterError(input: unknown): AppError | undefined {
  const found = firstRefusal(input);
  if (found === undefined) return undefined;
  if (found.tooDeep) return new AppError("BAD_REQUEST", ERROR_MESSAGES.tooDeep);
  return new AppError("BAD_REQUEST", VALIDATION.controlCharacters, {
    fieldErrors: { [found.path || "_"]: [VALIDATION.controlCharacters] },
  });
}

type Refusal = { tooDeep: true } | { tooDeep: false; path: string };
/** A value still to look at, or a key of an object (tested as text, its path the object's). */
type Pending = { value: unknown; path: string; depth: number; key?: string };

/**
 * The first string or key with a control character, by its dotted path ("" for the input itself), in
 * document order; or the first container past the depth limit. A loop with its own stack, not
 * recursion: a body of a million brackets must not overflow the call stack.
 */
function firstRefusal(input: unknown): Refusal | undefined {
  const stack: Pending[] = [{ value: input, path: "", depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth, key } = stack.pop()!;
    if (key !== undefined) {
      if (CONTROL_CHARACTERS.test(key)) return { tooDeep: false, path };
      continue;
    }
    if (typeof value === "string") {
      if (CONTROL_CHARACTERS.test(value)) return { tooDeep: false, path };
      continue;
    }
    const entries = Array.isArray(value)
      ? value.map((item, i): [string, unknown] => [String(i), item])
      : isPlainObject(value)
        ? Object.entries(value)
        : undefined;
    if (!entries || entries.length === 0) continue;
    if (depth >= MAX_INPUT_DEPTH) return { tooDeep: true };
    // Pushed last to first, so they are taken in order, each object key before its value.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [name, item] = entries[i]!;
      stack.push({ value: item, path: join(path, name), depth: depth + 1 });
      if (!Array.isArray(value)) stack.push({ value: undefined, path, depth, key: name });
    }
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
