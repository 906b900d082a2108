/**
 * What code outside the server needs to start it with routes of its own (the
 * bench's ceilings, bench/src/routes.ts): the start function, the plugin type,
 * the app's tRPC building blocks, so such routes pay what the app's
 * procedures pay, and the two read services the bench also runs alone in a
 * plain route (what their statements cost without the app's machinery).
 */
export { runServer, type StartOptions } from "./start";
export type { AppPlugin } from "./app";
export type { Context } from "./trpc/context";
export { createCallerFactory, publicProcedure, router } from "./trpc/init";
export { receivedVotes } from "./modules/inbox/received";
export { getMe } from "./modules/users/profile";
