/**
 * The @trpc/server versions this package was read and tested against: the
 * wire format single-call.ts reads, the envelope endpoint.ts writes, and the
 * router internals both touch (`_def.procedures`, `_def._config`). Outside
 * them, checked-version.test.ts fails until someone checks again (README).
 */
export const CHECKED_TRPC_SERVER = { from: "11.19.0", belowMinor: "11.20" } as const;
