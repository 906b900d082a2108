import { setupServer } from "msw/node";
import { defaultHandlers } from "./handlers";

/** The MSW server for unit tests; started by src/test/setup.ts. Add per-test handlers with server.use(). */
export const server = setupServer(...defaultHandlers);
