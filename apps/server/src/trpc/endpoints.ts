import { routes, type EndpointDef, type RouteName } from "@quad/contracts";
import type { TRPCProcedureBuilder } from "@trpc/server";
import type { z } from "zod";
import { AppError } from "../errors";
import { requireAdmin } from "../modules/admin/service";
import { userIdByPhone } from "../modules/inbox/received";
import type { Context } from "./context";
import { publicProcedure, sessionProcedure } from "./init";
import { enforceWriteLimits } from "./limits";

/**
 * Every procedure starts here: `endpoint("users.me")` is the base procedure
 * the contracts row asks for (public, session or moderator) with the row's
 * input and output schemas applied, so a router adds only the resolver, and
 * the procedure's path is the row's key (trpc/root.ts mounts each module
 * router under its domain). docs/decisions/0021-route-table-driven-procedures.md.
 *
 * The rules that cut across modules are data in the row or options here,
 * not hand-written in each module, and none adds a middleware level to a
 * procedure that has none of its own (decision 0005):
 * - the row's `writeLimit`: the per-student and per-address write limits,
 *   counted under the procedure's path, or under the bucket named
 *   (procedures that share one). Run in the resolver's wrapper, or in the
 *   step below when the procedure has one.
 * - `me`: the caller's profile id as `ctx.me` (NOT_FOUND without a
 *   profile), loaded in one middleware step, after the limit.
 * - `auth: "moderator"` in the row: admins only, `ctx.adminId`; anyone
 *   else gets NOT_FOUND. The limit runs after the check, in the same step.
 * - `devOnly` in the row, or a `guard`: NOT_FOUND unless the configuration
 *   serves it, before the input is read, in one step with the limit.
 */
export interface EndpointOptions {
  me?: true;
  /** A check of the configuration before the input is read (after the limit), e.g. the sign-in provider. */
  guard?: (ctx: Context) => void;
}

type Row<K extends RouteName> = (typeof routes)[K];
type InputOf<K extends RouteName> = Row<K> extends { input: infer I extends z.ZodType } ? I : undefined;
type OutputOf<K extends RouteName> = Row<K>["output"];

type Limit = string | undefined;

const limitStep = async (ctx: Context, name: string, phone: string | undefined) =>
  enforceWriteLimits(ctx.rateLimiter, { name, ip: ctx.ip, phone });

// Each base, concrete so that tRPC infers its context; `limit` runs inside the one middleware step.
const meBase = (limit: Limit) =>
  sessionProcedure.use(async ({ ctx, next }) => {
    if (limit) await limitStep(ctx, limit, ctx.viewer.phone);
    return next({ ctx: { ...ctx, me: await userIdByPhone(ctx.db, ctx.viewer.phone) } });
  });
const moderatorBase = (limit: Limit) =>
  sessionProcedure.use(async ({ ctx, next }) => {
    const adminId = await requireAdmin(ctx.db, ctx.viewer.phone);
    if (limit) await limitStep(ctx, limit, ctx.viewer.phone);
    return next({ ctx: { ...ctx, adminId } });
  });

const guardedBase = (session: boolean, limit: Limit, guard: (ctx: Context) => void) =>
  (session ? sessionProcedure : publicProcedure).use(async ({ ctx, next }) => {
    if (limit) await limitStep(ctx, limit, session ? ctx.viewer?.phone : undefined);
    guard(ctx);
    return next();
  });

/** Development helpers: not found in production, whatever ALLOW_DEV_PROVIDERS says (env.ts). */
function requireDevRoutes(ctx: Context) {
  if (!ctx.config.devRoutesEnabled) throw new AppError("NOT_FOUND", "Not found");
}

/** A base with the row's schemas applied, as tRPC's own `.input()` and `.output()` type it. */
type WithSchemas<B, I, O extends z.ZodType, Stream extends boolean> =
  B extends TRPCProcedureBuilder<infer C, infer M, infer CO, infer II, infer IO, infer OI, infer OO, infer CA>
    ? Pick<
        TRPCProcedureBuilder<
          C,
          M,
          CO,
          I extends z.ZodType ? z.input<I> : II,
          I extends z.ZodType ? z.output<I> : IO,
          // A stream's resolver answers an async iterable of events, each parsed by its service.
          Stream extends true ? OI : z.input<O>,
          Stream extends true ? OO : z.output<O>,
          CA
        >,
        // The resolver is all a router adds (a further .use() would skip the limit in the resolver's wrapper).
        "query" | "mutation" | "subscription"
      >
    : never;

type BaseOf<K extends RouteName, O extends EndpointOptions> = Row<K>["auth"] extends "moderator"
  ? ReturnType<typeof moderatorBase>
  : O extends { me: true }
    ? ReturnType<typeof meBase>
    : Row<K>["auth"] extends true
      ? typeof sessionProcedure
      : typeof publicProcedure;

type Built<K extends RouteName, O extends EndpointOptions> = WithSchemas<
  BaseOf<K, O>,
  InputOf<K>,
  OutputOf<K>,
  Row<K> extends { stream: true } ? true : false
>;

type AnyResolver = (opts: { ctx: Context }) => unknown;
interface AnyBuilder {
  query(resolver: AnyResolver): unknown;
  mutation(resolver: AnyResolver): unknown;
  subscription(resolver: AnyResolver): unknown;
}

/** The limit in the resolver's wrapper: no middleware level for procedures that have none. */
function limitedResolvers(builder: AnyBuilder, name: string, session: boolean): AnyBuilder {
  const limited =
    (resolver: AnyResolver): AnyResolver =>
    async (opts) => {
      const ctx = opts.ctx as Context & { viewer?: { phone: string } };
      await limitStep(ctx, name, session ? ctx.viewer?.phone : undefined);
      return resolver(opts);
    };
  return {
    query: (resolver) => builder.query(limited(resolver)),
    mutation: (resolver) => builder.mutation(limited(resolver)),
    subscription: (resolver) => builder.subscription(limited(resolver)),
  };
}

export function endpoint<K extends RouteName, const O extends EndpointOptions = Record<never, never>>(
  name: K,
  options?: O,
): Built<K, O> {
  const row: EndpointDef = routes[name];
  const limit = row.writeLimit === true ? name : row.writeLimit;
  const { input, output } = row;
  // Limited in the base's one step where it has one, else in the resolver's wrapper.
  const guard = row.devOnly ? requireDevRoutes : options?.guard;
  const stepped =
    row.auth === "moderator"
      ? moderatorBase(limit)
      : options?.me
        ? meBase(limit)
        : guard
          ? guardedBase(row.auth === true, limit, guard)
          : undefined;
  const base = stepped ?? (row.auth ? sessionProcedure : publicProcedure);
  const withInput = input ? base.input(input) : base;
  // A stream's `output` is each event's schema, which its service applies: tRPC's output check reads one answer.
  const builder = (row.stream ? withInput : withInput.output(output)) as unknown as AnyBuilder;
  return (!stepped && limit ? limitedResolvers(builder, limit, row.auth === true) : builder) as Built<K, O>;
}
