import { ERROR_MESSAGES } from "@quad/contracts";
import { queryRows } from "@quad/db";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";

/** The answer over REST and over tRPC, which must agree. */
async function ask(t: TestApp, path: string, procedure: string) {
  const rest = await t.app.inject({ method: "GET", url: `/api${path}` });
  const trpc = await t.app.inject({ method: "GET", url: `/api/trpc/${procedure}` });
  expect(trpc.statusCode, procedure).toBe(rest.statusCode);
  return { status: rest.statusCode, body: rest.json(), retryAfter: rest.headers["retry-after"] };
}

describe("liveness and readiness", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("answers live and ready on a migrated database, and /api/health as before", async () => {
    expect(await ask(t, "/health/live", "health.live")).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(await ask(t, "/health/ready", "health.ready")).toMatchObject({
      status: 200,
      body: { status: "ready", database: t.deps.dbKind },
    });
    expect(await ask(t, "/health", "health.status")).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("turns not-ready while draining, and stays live", async () => {
    t.deps.lifecycle!.draining = true;
    try {
      expect(await ask(t, "/health/ready", "health.ready")).toMatchObject({
        status: 503,
        body: { code: "SERVICE_UNAVAILABLE", message: ERROR_MESSAGES.shuttingDown },
        retryAfter: expect.any(String),
      });
      expect((await ask(t, "/health/live", "health.live")).status).toBe(200);
    } finally {
      t.deps.lifecycle!.draining = false;
    }
    expect((await ask(t, "/health/ready", "health.ready")).status).toBe(200);
  });
});

describe("readiness before migrations", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("is refused while the newest migration is missing, and given once it is applied", async () => {
    const [newest] = await queryRows<{ hash: string; created_at: string }>(
      t.deps.db,
      sql`delete from drizzle.__drizzle_migrations
          where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning hash, created_at`,
    );
    expect(newest).toBeDefined();
    expect(await ask(t, "/health/ready", "health.ready")).toMatchObject({
      status: 503,
      body: { message: ERROR_MESSAGES.migrationsPending },
    });
    await t.deps.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${newest!.hash}, ${newest!.created_at})`,
    );
    expect((await ask(t, "/health/ready", "health.ready")).status).toBe(200);
  });
});
