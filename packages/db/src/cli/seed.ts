import { parseArgs } from "node:util";
import { createDatabase } from "../client";
import { migrate } from "../migrate";
import { createDiskMediaSink, seed, seedLoadTestStudents } from "../seed/index";
import { mediaDir, pgliteDir, readCliEnv, runCli } from "./env";

/**
 * `pnpm db:seed [--students N --school ID]`: migrates, seeds reference data
 * (and demo students when SEED_DEMO is on and there are no users), then
 * optionally bulk-inserts N load-test students at school ID.
 */
function parseCount(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return n;
}

runCli(async () => {
  const { values } = parseArgs({
    options: { students: { type: "string" }, school: { type: "string" } },
    strict: true,
  });
  const students = parseCount("students", values.students);
  const school = parseCount("school", values.school);
  if ((students === undefined) !== (school === undefined)) throw new Error("--students and --school go together");

  const env = readCliEnv();
  const media = createDiskMediaSink(mediaDir(env));
  const handle = await createDatabase(env.databaseUrl ? { url: env.databaseUrl } : { dataDir: pgliteDir(env) });
  try {
    await migrate(handle.db);
    let started = Date.now();
    const result = await seed(handle.db, { demo: env.seedDemo, media });
    console.log(
      `[db] ${handle.kind}: ${result.schools} schools, ${result.prompts} prompts, ` +
        `${result.demoStudents} demo students (${Date.now() - started} ms)`,
    );
    if (students !== undefined && school !== undefined) {
      started = Date.now();
      const load = await seedLoadTestStudents(handle.db, { schoolId: school, count: students, media });
      console.log(`[db] ${load.inserted} load-test students at school ${school} (${Date.now() - started} ms)`);
    }
  } finally {
    await handle.close();
  }
});
