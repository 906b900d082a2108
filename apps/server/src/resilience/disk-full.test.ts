import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ApiErrorBody, ERROR_MESSAGES } from "@quad/contracts";
import type { Database } from "@quad/db";
import { seed } from "@quad/db/seed";
import { createTestDatabase, type TestDatabase } from "@quad/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiskStorage, type MediaStorage } from "../media/storage";
import { registry } from "../metrics/registry";
import { STORAGE_FULL_HOLD_MS } from "../modules/health/service";
import { createTestAppOn, type TestApp } from "../test/app";
import { bearer, signIn, testPhone } from "../test/auth";
import { multipartBody, png } from "../test/images";

/**
 * A full disk, simulated (never by filling the real one): while `full.database`
 * every write the app sends through Drizzle fails as Postgres fails it
 * (53100 disk_full), and while `full.media` every photo write fails with
 * ENOSPC. The app must answer a clear 503, say so in its metrics while writes
 * fail (quad_storage_full), keep readiness on (the disks are every replica's:
 * taking them all out of rotation would refuse what still works), and spend
 * no sign-in text on a code it did not store and send: a
 * full disk once failed 1,961 sends, spent the hour's 2,000 texts with them,
 * and sign-in stayed refused after space was back (decision 0033).
 */
const BUDGET = 5;
const full = { database: false, media: false };

function diskFull(): Error {
  const postgres = Object.assign(new Error('could not extend file "base/16384/16623": No space left on device'), {
    code: "53100",
  });
  return new Error("Failed query", { cause: postgres });
}

/** A query builder whose every chained call leads to the same rejection when it runs. */
function failing(error: Error): unknown {
  return new Proxy(() => {}, {
    get: (_, prop) => {
      if (prop === "then")
        return (ok: (v: unknown) => unknown, ko: (e: unknown) => unknown) => Promise.reject(error).then(ok, ko);
      if (prop === "catch") return (ko: (e: unknown) => unknown) => Promise.reject(error).catch(ko);
      return failing(error);
    },
    apply: () => failing(error),
  });
}

/** `db`, whose inserts, updates and deletes fail (inside transactions too) while the database's disk is full. */
function onFillableDisk<T extends object>(db: T): T {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "insert" || prop === "update" || prop === "delete")
        return (...args: unknown[]) => (full.database ? failing(diskFull()) : value.apply(target, args));
      if (prop === "transaction")
        return (work: (tx: object) => unknown, config?: unknown) =>
          value.call(target, (tx: object) => work(onFillableDisk(tx)), config);
      return value.bind(target);
    },
  });
}

function onFillableMediaDisk(media: MediaStorage): MediaStorage {
  return {
    ...media,
    async put(key, data, contentType) {
      if (full.media)
        throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: "ENOSPC", syscall: "write" });
      return media.put(key, data, contentType);
    },
  };
}

describe("a full disk", () => {
  let database: TestDatabase;
  let t: TestApp;
  let mediaDir: string;
  let offsetMs = 0;
  let address = 0;
  // A new client each time: only the app's hourly budget is shared.
  const nextAddress = () => `10.53.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    mediaDir = await mkdtemp(path.join(tmpdir(), "quad-disk-full-"));
    const media = onFillableMediaDisk(createDiskStorage(mediaDir));
    await seed(database.db, { demo: false, media });
    t = await createTestAppOn(onFillableDisk(database.db) as Database, database.kind, {
      env: { SMS_HOURLY_BUDGET: String(BUDGET), METRICS_PORT: "0", DATA_DIR: mediaDir },
      media,
      now: () => new Date(Date.now() + offsetMs),
    });
  });

  afterAll(async () => {
    await t?.close();
    await database?.close();
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
  });

  const sendCode = (phone = testPhone()) =>
    t.app.inject({ method: "POST", url: "/api/auth/send-code", payload: { phone }, remoteAddress: nextAddress() });
  const ready = () => t.app.inject({ method: "GET", url: "/api/health/ready" });
  /** quad_storage_full's value for `storage` at a scrape now. */
  const fullMetric = async (storage: string) => {
    const text = await registry.getSingleMetricAsString("quad_storage_full");
    return Number(new RegExp(`storage="${storage}"\\} (\\d+)`).exec(text)?.[1]);
  };

  it("answers sign-in with a clear 503 while the database's disk is full, says so in its metrics, stays ready, and spends no texts", async () => {
    full.database = true;
    const refused = [];
    for (let i = 0; i < BUDGET * 3; i++) refused.push(await sendCode());
    const trpc = await t.app.inject({
      method: "POST",
      url: "/api/trpc/auth.sendCode",
      payload: { phone: testPhone() },
      remoteAddress: nextAddress(),
    });
    const whileFull = await ready();
    const metricWhileFull = [await fullMetric("database"), await fullMetric("data_dir")];
    full.database = false;
    const rightAfter = await fullMetric("database");

    console.log(
      `disk full: ${refused.length} sign-in codes answered ${[...new Set(refused.map((r) => r.statusCode))].join(", ")}; readiness ${whileFull.statusCode}`,
    );
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(503);
      expect(ApiErrorBody.parse(res.json())).toEqual({
        message: ERROR_MESSAGES.storageFull,
        code: "SERVICE_UNAVAILABLE",
        retryAfterSeconds: 5,
      });
      expect(res.headers["retry-after"]).toBe("5");
    }
    expect(trpc.statusCode).toBe(503);
    expect(trpc.json()).toMatchObject({
      error: { message: ERROR_MESSAGES.storageFull, data: { code: "SERVICE_UNAVAILABLE", httpStatus: 503 } },
    });
    expect(whileFull.statusCode, whileFull.body).toBe(200);
    expect(metricWhileFull).toEqual([1, 0]);
    // Nothing says space is back but a write that works: the metric holds a while, then says free again.
    expect(rightAfter).toBe(1);
    offsetMs += STORAGE_FULL_HOLD_MS;
    expect(await fullMetric("database")).toBe(0);

    // Space is back: the hour's whole budget is there, and no more.
    const sent = [];
    for (let i = 0; i < BUDGET + 1; i++) sent.push((await sendCode()).statusCode);
    console.log(`space back: the next ${BUDGET + 1} sign-in codes answered ${sent.join(", ")}`);
    expect(sent).toEqual([...Array<number>(BUDGET).fill(200), 429]);
  });

  it("answers a photo upload with a clear 503 while the media disk is full, and the metrics say so, not readiness", async () => {
    offsetMs += 60 * 60 * 1000; // a new hour's budget for signing in
    const tokens = await signIn(t.app, testPhone(), nextAddress());
    const schoolId = (await t.app.inject({ method: "GET", url: "/api/schools" })).json<{ id: number }[]>()[0]!.id;
    const fields = { firstName: "Avery", university: String(schoolId), graduationYear: "2027", gender: "female" };
    expect((await patchProfile(tokens, fields)).statusCode).toBe(200);

    full.media = true;
    const photo = { name: "me.png", type: "image/png", data: await png() };
    const res = await patchProfile(tokens, { isVerified: "true" }, photo);
    const whileFull = await ready();
    const metricWhileFull = [await fullMetric("database"), await fullMetric("data_dir")];
    // What needs no new file still works: readiness must not take the replica out for it.
    const me = await t.app.inject({ method: "GET", url: "/api/users/me", headers: bearer(tokens) });
    full.media = false;

    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toEqual({
      message: ERROR_MESSAGES.storageFull,
      code: "SERVICE_UNAVAILABLE",
      retryAfterSeconds: 5,
    });
    expect(whileFull.statusCode, whileFull.body).toBe(200);
    expect(me.statusCode).toBe(200);
    expect(metricWhileFull).toEqual([0, 1]);
    offsetMs += STORAGE_FULL_HOLD_MS;
    expect(await fullMetric("data_dir")).toBe(0);
    const space = await registry.getSingleMetricAsString("quad_data_dir_free_bytes");
    expect(Number(/quad_data_dir_free_bytes (\d+)/.exec(space)?.[1])).toBeGreaterThan(0);
    expect((await patchProfile(tokens, { isVerified: "true" }, photo)).statusCode).toBe(200);
  });

  function patchProfile(
    tokens: { token: string },
    fields: Record<string, string>,
    file?: Parameters<typeof multipartBody>[1],
  ) {
    const body = multipartBody(fields, file);
    return t.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: { ...body.headers, ...bearer(tokens) },
      payload: body.payload,
      remoteAddress: nextAddress(),
    });
  }
});
