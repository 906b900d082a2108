import type { Database } from "@quad/db";
import * as schema from "@quad/db/schema";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { urlOfTestDatabase } from "./postgres";

/**
 * A second postgres.js client on a test database that counts every statement
 * it sends (BEGIN and COMMIT included: each is a round trip to the server),
 * so a test can say how many a request costs.
 */
export interface CountingDatabase {
  db: Database;
  /** Runs `fn` and answers the statements sent meanwhile. */
  statementsOf(fn: () => Promise<unknown>): Promise<string[]>;
  close(): Promise<void>;
}

export async function countingDatabase(serverUrl: string, testDb: Database): Promise<CountingDatabase> {
  const url = await urlOfTestDatabase(testDb, serverUrl);
  let sent: string[] | null = null;
  const client = postgres(url, {
    max: 5,
    onnotice: () => {},
    debug: (_connection, query) => sent?.push(query.replace(/\s+/g, " ").trim()),
  });
  return {
    db: drizzle(client, { schema }),
    async statementsOf(fn) {
      sent = [];
      try {
        await fn();
        return sent;
      } finally {
        sent = null;
      }
    },
    close: () => client.end({ timeout: 5 }),
  };
}
