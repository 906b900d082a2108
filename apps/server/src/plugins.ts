/**
 * What code outside the server needs to start it with routes of its own (the
 * bench's ceilings, bench/src/routes.ts): the start function, the plugin type,
 * and the app's tRPC building blocks, so such routes pay what the app's
 * procedures pay.
 */
export { runServer, type StartOptions } from "./start";
export type { AppPlugin } from "./app";
export type { Context } from "./trpc/context";
export { createCallerFactory, publicProcedure, router } from "./trpc/init";
