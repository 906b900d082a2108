import { afterEach, vi } from "vitest";

// Any console.error during a test is a bug the test did not expect.
const calls: unknown[][] = [];
vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
  calls.push(args);
});
afterEach(() => {
  if (calls.length) {
    const first = calls.splice(0).map((args) => args.map(String).join(" "));
    throw new Error(`console.error was called:\n${first.join("\n")}`);
  }
});
