import { cleanup, configure } from "@testing-library/react";
import { format } from "node:util";
import { afterAll, afterEach, beforeAll, beforeEach, vi } from "vitest";
import { clearServerCache } from "../lib/data-layer";
import { SIGNED_OUT, useSessionStore } from "../lib/session-store";
import { installDialogStandIn } from "./dialog-stand-in";
import { server } from "./msw/server";

/*
 * Any console.error during a test (React warnings, act() warnings, failed
 * prop types, uncaught render errors) fails that test.
 */
let consoleErrors: string[] = [];

// Lazy screens and the lazy toast container take more than testing-library's
// default 1 s to appear when the machine is busy (CI shares two cores with the
// database and the browser tests); a real failure still fails, only later.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no layout; ScrollRestoration calls this on every navigation.
window.scrollTo = () => undefined;
installDialogStandIn();

beforeAll(() => {
  server.listen({ onUnhandledRequest: "error" });
});

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrors.push(format(...args));
  });
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  clearServerCache();
  // Reset the app's store, then drop what resetting it persisted.
  useSessionStore.setState(SIGNED_OUT);
  window.localStorage.clear();
  window.sessionStorage.clear();
  const errors = consoleErrors;
  consoleErrors = [];
  if (errors.length > 0) {
    throw new Error(`console.error was called during the test:\n${errors.join("\n---\n")}`);
  }
});

afterAll(() => {
  server.close();
});
