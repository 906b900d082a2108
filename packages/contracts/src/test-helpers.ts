import { expect } from "vitest";
import type { z } from "zod";

/** The distinct messages a failed parse produced (duplicates collapsed). */
export function messagesOf(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return [...new Set(result.error.issues.map((issue) => issue.message))];
}

/** Asserts the parse succeeds and returns the parsed value. */
export function expectValid<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new Error(
      `expected ${JSON.stringify(input)} to be valid, got: ${result.error.issues.map((i) => i.message).join("; ")}`,
    );
  }
  return result.data;
}

/** Asserts the parse fails with exactly this one message (and no other). */
export function expectInvalid(schema: z.ZodType, input: unknown, message: string): void {
  const result = schema.safeParse(input);
  expect(result.success, `expected ${JSON.stringify(input)} to be rejected`).toBe(false);
  expect(messagesOf(schema, input)).toEqual([message]);
}

/** Messages of a failed object parse at one field path. */
export function messagesAt(schema: z.ZodType, input: unknown, path: string): string[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return [...new Set(result.error.issues.filter((i) => i.path.join(".") === path).map((i) => i.message))];
}
