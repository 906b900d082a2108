import { routes, type EndpointDef } from "@quad/contracts";
import type { AnyTRPCProcedure } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { appRouter } from "./root";

const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;
const rows = routes as Record<string, EndpointDef>;

describe("procedures and the contracts table", () => {
  it("has one row per procedure, named by the procedure's path", () => {
    expect(Object.keys(procedures).sort()).toEqual(Object.keys(rows).sort());
  });

  it.each(Object.keys(rows))("%s is built from its own row: its input and output schemas", (name) => {
    const def = procedures[name]!._def as unknown as { inputs: unknown[]; output?: unknown };
    const row = rows[name]!;
    expect(def.inputs).toHaveLength(row.input ? 1 : 0);
    if (row.input) expect(def.inputs[0]).toBe(row.input);
    // A stream's output schema is each event's, applied by its service (modules/live/service.ts).
    expect(def.output).toBe(row.stream ? undefined : row.output);
  });
});
