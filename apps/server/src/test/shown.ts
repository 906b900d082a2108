import { insertTestPrompt } from "@quad/db/testing";
import { rounds } from "@quad/db/schema";
import type { TestApp } from "./app";

/**
 * Records a finished round that showed `shown` (beside `beside`) to
 * `voterId`, as the voting loop would have: what lets a student block or
 * report someone. (The loop's own tests open rounds through the API.)
 */
export async function showTo(t: TestApp, voterId: string, shown: string, beside: string): Promise<void> {
  const prompt = await insertTestPrompt(t.deps.db);
  await t.deps.db.insert(rounds).values({
    voterId,
    promptId: prompt.id,
    candidateAId: beside,
    candidateBId: shown,
    status: "closed",
    closedAt: t.deps.now(),
  });
}
