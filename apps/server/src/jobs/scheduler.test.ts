import type { DatabaseHandle } from "@quad/db";
import { jobRuns } from "@quad/db/schema";
import { createTestDatabase } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secondConnection, testClock } from "../test/sms";
import { createJobScheduler, type JobDefinition, type JobLogger } from "./scheduler";

const MINUTE = 60_000;
const INTERVAL = 10 * MINUTE;
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim() || undefined;

const quiet: JobLogger = { info: () => {}, error: () => {} };
let first: DatabaseHandle;
let second: DatabaseHandle;
beforeAll(async () => {
  first = await createTestDatabase();
  second = await secondConnection(first, serverUrl);
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

let jobCounter = 0;
const uniqueName = () => `test-job-${++jobCounter}`;

function countingJob(name: string, runs: Date[], now: () => Date, work?: () => Promise<void>): JobDefinition {
  return {
    name,
    intervalMs: INTERVAL,
    async run() {
      runs.push(now());
      await work?.();
    },
  };
}

describe("the job scheduler", () => {
  it("runs a job once per interval however many processes tick (two schedulers, one database)", async () => {
    const clock = testClock("2026-03-02T12:00:00Z");
    const name = uniqueName();
    const runsA: Date[] = [];
    const runsB: Date[] = [];
    const a = createJobScheduler({
      db: first.db,
      jobs: [countingJob(name, runsA, clock.now)],
      now: clock.now,
      log: quiet,
      instanceId: "a",
    });
    const b = createJobScheduler({
      db: second.db,
      jobs: [countingJob(name, runsB, clock.now)],
      now: clock.now,
      log: quiet,
      instanceId: "b",
    });

    // One hour of 30-second ticks, both processes ticking at the same instants.
    for (let step = 0; step < 120; step++) {
      await Promise.all([a.tick(), b.tick()]);
      clock.advance(30_000);
    }
    const all = [...runsA, ...runsB].map((d) => d.getTime()).sort((x, y) => x - y);
    expect(all).toHaveLength(6);
    const start = Date.parse("2026-03-02T12:00:00Z");
    expect(all).toEqual([0, 1, 2, 3, 4, 5].map((i) => start + i * INTERVAL));
  });

  it("does not replay the runs missed while every process was down", async () => {
    const clock = testClock("2026-03-02T12:00:00Z");
    const runs: Date[] = [];
    const job = countingJob(uniqueName(), runs, clock.now);
    const s = createJobScheduler({ db: first.db, jobs: [job], now: clock.now, log: quiet });
    expect(await s.tick()).toEqual([job.name]);
    clock.advance(5 * 60 * MINUTE); // five hours down
    expect(await s.tick()).toEqual([job.name]);
    expect(await s.tick()).toEqual([]);
    clock.advance(INTERVAL - 1);
    expect(await s.tick()).toEqual([]);
    clock.advance(1);
    expect(await s.tick()).toEqual([job.name]);
    expect(runs).toHaveLength(3);
  });

  it("never overlaps a slow run, and a crashed run's lease expires", async () => {
    const clock = testClock("2026-03-02T12:00:00Z");
    const name = uniqueName();
    // Process A claims, then "crashes" mid-run: its run never finishes, so the lease is never released.
    const crashed = createJobScheduler({
      db: first.db,
      jobs: [{ name, intervalMs: INTERVAL, run: () => new Promise<void>(() => {}) }],
      now: clock.now,
      log: quiet,
    });
    void crashed.tick();
    await waitFor(
      async () => (await first.db.select().from(jobRuns).where(eq(jobRuns.name, name)))[0]?.leaseUntil != null,
    );

    const runs: Date[] = [];
    const b = createJobScheduler({
      db: second.db,
      jobs: [countingJob(name, runs, clock.now)],
      now: clock.now,
      log: quiet,
    });
    clock.advance(INTERVAL - 1); // due at +10 min, but A's lease also lasts until then
    expect(await b.tick()).toEqual([]);
    clock.advance(1);
    expect(await b.tick()).toEqual([name]);
    expect(runs).toHaveLength(1);
  });

  it("records a failed run and keeps the schedule", async () => {
    const clock = testClock("2026-03-02T12:00:00Z");
    const name = uniqueName();
    const errors: object[] = [];
    let attempt = 0;
    const s = createJobScheduler({
      db: first.db,
      jobs: [
        {
          name,
          intervalMs: INTERVAL,
          async run() {
            attempt += 1;
            if (attempt === 1) throw new Error("provider exploded");
          },
        },
      ],
      now: clock.now,
      log: { info: () => {}, error: (obj) => errors.push(obj) },
    });
    expect(await s.tick()).toEqual([name]);
    const [row] = await first.db.select().from(jobRuns).where(eq(jobRuns.name, name));
    expect(row).toMatchObject({ lastError: "provider exploded", leaseUntil: null });
    expect(row!.nextRunAt.getTime()).toBe(clock.now().getTime() + INTERVAL);
    expect(errors).toHaveLength(1);
    clock.advance(INTERVAL);
    expect(await s.tick()).toEqual([name]);
    const [after] = await first.db.select().from(jobRuns).where(eq(jobRuns.name, name));
    expect(after!.lastError).toBeNull();
  });

  it("ticks on its own timer once started, and stop() aborts and waits for the run in progress", async () => {
    const name = uniqueName();
    let aborted = false;
    let finished = false;
    let stopLater: () => Promise<void> = async () => {};
    const started = new Promise<void>((resolve) => {
      const s = createJobScheduler({
        db: first.db,
        tickMs: 10,
        now: () => new Date(),
        log: quiet,
        jobs: [
          {
            name,
            intervalMs: INTERVAL,
            async run(signal) {
              resolve();
              await new Promise<void>((done) => signal.addEventListener("abort", () => done()));
              aborted = signal.aborted;
              finished = true;
            },
          },
        ],
      });
      s.start();
      stopLater = () => s.stop();
    });
    await started;
    await stopLater();
    expect({ aborted, finished }).toEqual({ aborted: true, finished: true });
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}
