import { queryRows, type Database } from "@quad/db";
import { sql } from "drizzle-orm";

/** The URL of the test database `db` is connected to, for a second client or another process. */
export async function urlOfTestDatabase(db: Database, serverUrl: string): Promise<string> {
  const [row] = await queryRows<{ name: string }>(db, sql`select current_database() as name`);
  const url = new URL(serverUrl);
  url.pathname = `/${row!.name}`;
  return url.toString();
}
