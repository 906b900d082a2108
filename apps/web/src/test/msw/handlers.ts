import { http, HttpResponse } from "msw";
import { createSchool } from "./fixtures";
import { trpcHandler, type TrpcResolvers } from "./trpc";

/** Happy-path answers for the procedures every screen may touch. Spread and override per test. */
export const defaultTrpcResolvers: TrpcResolvers = {
  "health.status": () => ({ status: "ok", database: "pglite" }),
  "schools.list": () => [createSchool(), createSchool({ id: 2, schoolName: "City College" })],
  "auth.logout": () => ({ ok: true }),
};

export const defaultHandlers = [
  trpcHandler(defaultTrpcResolvers),
  http.get("*/api/health", () => HttpResponse.json({ status: "ok", database: "pglite" })),
];
