import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { PGlite } from "@electric-sql/pglite";
import type { Sql } from "postgres";
import type { Database, DatabaseKind } from "./client";
import * as schema from "./schema/index";

/** A statement as it is sent: its SQL text, with placeholders ($1, $2…) where the values go. */
export interface SentStatement {
  readonly text: string;
}

/**
 * Told of each statement as it is sent. What it answers, if anything, is
 * called once when the statement has settled, with the error when it failed.
 * It is never given the values bound to the placeholders (phone numbers,
 * sign-in codes).
 */
export type StatementObserver = (statement: SentStatement) => ((error?: unknown) => void) | undefined;

type Fn = (...args: unknown[]) => unknown;

/**
 * The same database, with every statement a query or a transaction sends
 * told to `observe`: drizzle's queries, `preparedStatement`'s (which go to
 * postgres.js directly) and those inside transactions. BEGIN and COMMIT are
 * the drivers' own and are not told. The driver's client is wrapped, not
 * patched, so the database passed in is unchanged.
 */
export function observeStatements(db: Database, kind: DatabaseKind, observe: StatementObserver): Database {
  const client = (db as unknown as { $client: object }).$client;
  return kind === "postgres"
    ? drizzlePostgres({ client: observedPostgres(client as Sql, observe), schema })
    : drizzlePglite({ client: observedPglite(client as PGlite, observe), schema });
}

/** Tells `observe` of the statement and of how the query settles; answers the query itself. */
function told<Q extends PromiseLike<unknown>>(observe: StatementObserver, text: unknown, query: Q): Q {
  const settled = observe({ text: String(text) });
  // On postgres.js, `then` starts the query a microtask later, after drizzle's `.values()` has marked it.
  if (settled)
    query.then(
      () => settled(),
      (error: unknown) => settled(error),
    );
  return query;
}

/** The function given last (postgres.js's `begin(options?, fn)`, `savepoint(name?, fn)`), handed an observed client. */
function withObservedScope(args: unknown[], observe: StatementObserver): unknown[] {
  const scope = args.at(-1) as Fn;
  return [...args.slice(0, -1), (sql: Sql) => scope(observedPostgres(sql, observe))];
}

function observedPostgres(sql: Sql, observe: StatementObserver): Sql {
  return new Proxy(sql, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      const fn = value as Fn;
      if (key === "unsafe") return (...args: unknown[]) => told(observe, args[0], fn(...args) as Promise<unknown>);
      if (key === "begin" || key === "savepoint")
        return (...args: unknown[]) => fn(...withObservedScope(args, observe));
      return fn;
    },
  });
}

/** PGlite and its transactions: `query` and `exec` send statements; methods run on the instance itself. */
function observedPglite<C extends object>(client: C, observe: StatementObserver): C {
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      const fn = (value as Fn).bind(target);
      if (key === "query" || key === "exec") {
        return (...args: unknown[]) => told(observe, args[0], fn(...args) as Promise<unknown>);
      }
      if (key === "transaction") {
        return (scope: Fn) => fn((tx: object) => scope(observedPglite(tx, observe)));
      }
      return fn;
    },
  });
}
