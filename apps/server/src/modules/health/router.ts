import { Health } from "@quad/contracts";
import { sql } from "drizzle-orm";
import { publicProcedure } from "../../trpc/init";

/** Answers only when the database does. */
export const healthProcedure = publicProcedure.output(Health).query(async ({ ctx }) => {
  await ctx.db.execute(sql`select 1`);
  return { status: "ok" as const, database: ctx.dbKind };
});
