import type { Database } from "@quad/db";
import { sql } from "drizzle-orm";

/** The database's answer to `select 1`; one execution (Drizzle runs a query on each then()). */
export const databaseAnswers = (db: Database): Promise<unknown> => Promise.resolve(db.execute(sql`select 1`));
