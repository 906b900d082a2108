import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { VOTES_PER_BATCH } from "@quad/contracts";
import { emailOutbox, smsOutbox, unlocks, users, voterState, votes } from "@quad/db/schema";
import { seedReferenceData } from "@quad/db/seed";
import {
  createTestDatabase,
  deliveredAt,
  insertTestPrompt,
  insertTestSchool,
  insertTestUser,
  type TestDatabase,
} from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../modules/auth/sessions";
import { recordSignupConsents } from "../modules/consents/service";
import { openEventStream } from "../test/event-stream";
import { urlOfTestDatabase } from "../test/postgres";
import { freePort, stopProcess, waitUntilAnswering } from "../test/processes";

/**
 * docs/architecture.md "Several processes", as deployed: two real server processes
 * (src/index.ts, as `pnpm start` runs it, each its own pool, LISTEN
 * connection, Redis client and job scheduler) on one Postgres and the
 * machine's Redis, behind nginx running the very deploy/nginx.conf that
 * docker-compose.yml mounts (only the upstream addresses and the listen
 * port are rewritten). Every request goes through the proxy.
 * (perf/several-processes.test.ts covers the same rules with two in-process
 * instances, where each request can be sent to a chosen one.)
 */
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
const REDIS_URL = "redis://127.0.0.1:6379";
const SERVER_DIR = path.resolve(import.meta.dirname, "../..");
const NGINX_CONF = path.resolve(SERVER_DIR, "../../deploy/nginx.conf");
const JWT_SECRET = "replicas-test-secret-0123456789abcdef0123456789";
const nginxBinary = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => spawnSync(p, ["-v"]).status === 0);
// CI installs nginx (.ci/run): there a missing one must fail, not skip.
if (!nginxBinary && process.env.CI && serverUrl)
  throw new Error("nginx is missing: .ci/run installs nginx-light for this test");

interface Answer {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
}

/**
 * A request to the proxy from a chosen loopback address (all of 127.0.0.0/8
 * is this machine), so the address nginx sees, and passes on as
 * X-Forwarded-For, is this test's own and no other run shares its limits.
 */
function viaProxy(
  port: number,
  opts: { path: string; method?: string; headers?: Record<string, string>; body?: unknown; from: string },
): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: opts.path,
        method: opts.method ?? "GET",
        localAddress: opts.from,
        headers: { ...(payload ? { "content-type": "application/json" } : {}), ...opts.headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** A local hour between 11:00 and 13:00 right now, so the notice is outside quiet hours. */
function middayZone(): string {
  const offset = ((12 - new Date().getUTCHours() + 36) % 24) - 12;
  return offset === 0 ? "Etc/UTC" : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

describe.skipIf(!serverUrl || !nginxBinary)(
  serverUrl && nginxBinary
    ? "two server processes behind nginx (deploy/nginx.conf) on one Postgres and one Redis"
    : "two server processes behind nginx (skipped: needs DATABASE_URL and nginx; CI has both)",
  () => {
    let database: TestDatabase;
    let workDir: string;
    let proxyPort: number;
    /** Each replica's own port, to ask one process in particular. */
    let replicaPorts: number[] = [];
    const replicas: ChildProcess[] = [];
    let nginx: ChildProcess | undefined;
    // This run's own client address (see viaProxy).
    const from = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;
    let recipientPhone = "";

    beforeAll(async () => {
      database = await createTestDatabase();
      await seedReferenceData(database.db);
      const url = await urlOfTestDatabase(database.db, serverUrl!);
      workDir = await mkdtemp(path.join(tmpdir(), "quad-replicas-"));
      const logs = path.join(SERVER_DIR, "reports");
      await mkdir(logs, { recursive: true });

      // Votes waiting for a notice before either process starts: the 10-minute job must text once.
      const school = await insertTestSchool(database.db, { timeZone: middayZone() });
      const recipient = await insertTestUser(database.db, { schoolId: school.id, gender: "female" });
      const voter = await insertTestUser(database.db, { schoolId: school.id, gender: "male" });
      recipientPhone = recipient.phone;
      await recordSignupConsents(database.db, recipient.phone, new Date());
      const prompt = await insertTestPrompt(database.db);
      await database.db
        .insert(votes)
        .values({ voterId: voter.id, recipientId: recipient.id, promptId: prompt.id, ...deliveredAt() });

      const ports = [await freePort(), await freePort()];
      replicaPorts = ports;
      for (const [i, port] of ports.entries()) {
        const child = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
          cwd: SERVER_DIR,
          stdio: ["ignore", "pipe", "pipe"],
          env: {
            ...process.env,
            NODE_ENV: "development",
            HOST: "127.0.0.1",
            PORT: String(port),
            DATABASE_URL: url,
            REDIS_URL,
            JWT_SECRET,
            DATA_DIR: workDir,
            TRUST_PROXY: "true",
            JOBS_ENABLED: "true",
            SEED_DEMO: "false",
            LOG_LEVEL: "warn",
            // Delivered at once: the streams' test measures the way through the proxy, not the delivery window.
            VOTE_DELIVERY_WINDOW_S: "0.001",
          },
        });
        const log = createWriteStream(path.join(logs, `replica-${i + 1}.log`));
        child.stdout?.pipe(log);
        child.stderr?.pipe(log);
        replicas.push(child);
      }
      await Promise.all(ports.map((port, i) => waitUntilAnswering(`http://127.0.0.1:${port}/api/health`, replicas[i])));

      // deploy/nginx.conf as compose mounts it, pointed at these two processes and a free port.
      proxyPort = await freePort();
      const original = await readFile(NGINX_CONF, "utf8");
      const rewrites: [string, string][] = [
        ["server app1:3000", `server 127.0.0.1:${ports[0]}`],
        ["server app2:3000", `server 127.0.0.1:${ports[1]}`],
        ["listen 80;", `listen 127.0.0.1:${proxyPort};`],
      ];
      let conf = original;
      for (const [from, to] of rewrites) {
        if (!conf.includes(from))
          throw new Error(`deploy/nginx.conf no longer has "${from}": update this test with it`);
        conf = conf.replaceAll(from, to);
      }
      const confFile = path.join(workDir, "nginx.conf");
      await writeFile(confFile, conf);
      nginx = spawn(
        nginxBinary!,
        [
          "-p",
          workDir,
          "-c",
          confFile,
          "-e",
          path.join(workDir, "nginx-error.log"),
          "-g",
          `daemon off; pid ${path.join(workDir, "nginx.pid")};`,
        ],
        { stdio: "ignore" },
      );
      await waitUntilAnswering(`http://127.0.0.1:${proxyPort}/api/health`, nginx);
    }, 120_000);

    afterAll(async () => {
      await stopProcess(nginx);
      await Promise.all(replicas.map((replica) => stopProcess(replica)));
      await database?.close();
      if (workDir) await rm(workDir, { recursive: true, force: true });
    });

    const sessionHeaders = async (phone: string) => ({
      authorization: `Bearer ${(await startSession({ db: database.db, now: () => new Date(), secret: JWT_SECRET }, phone)).token}`,
    });

    it("browser security headers come through the proxy unchanged, on answers and on 404s", async () => {
      for (const path of ["/api/health", "/api/no-such-route", "/api/trpc/no.such.procedure"]) {
        const direct = await viaProxy(replicaPorts[0]!, { path, from });
        const proxied = await viaProxy(proxyPort, { path, from });
        expect(proxied.status, path).toBe(direct.status);
        expect(proxied.headers["content-security-policy"], path).toMatch(/frame-ancestors 'none'/);
        for (const name of [
          "content-security-policy",
          "x-content-type-options",
          "x-frame-options",
          "referrer-policy",
          "permissions-policy",
          "cross-origin-opener-policy",
        ]) {
          expect(proxied.headers[name], `${path} ${name}`).toBe(direct.headers[name]);
        }
      }
    });

    it("the 10-minute job on both processes: votes waiting at start get one text, not one per process", async () => {
      await expect
        .poll(
          async () => (await database.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, recipientPhone))).length,
          { timeout: 20_000 },
        )
        .toBe(1);
      // Both schedulers have ticked by now (each ticks when it starts); still one.
      await new Promise((r) => setTimeout(r, 1000));
      expect(await database.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, recipientPhone))).toHaveLength(1);
    });

    it("vote allowance: 20 votes sent at once through the proxy with one vote left store exactly one", async () => {
      const school = await insertTestSchool(database.db);
      const voter = await insertTestUser(database.db, { schoolId: school.id, gender: "male", preference: "female" });
      for (let i = 0; i < 6; i++) await insertTestUser(database.db, { schoolId: school.id, gender: "female" });
      await database.db.insert(voterState).values({ userId: voter.id, votesInBatch: VOTES_PER_BATCH - 1 });
      const headers = await sessionHeaders(voter.phone);
      const opened = await viaProxy(proxyPort, { path: "/api/prompts/random", headers, from });
      expect(opened.status, opened.body).toBe(200);
      const round = JSON.parse(opened.body) as { prompt: { id: number }; users: { id: string }[] };
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          viaProxy(proxyPort, {
            path: "/api/votes/store",
            method: "POST",
            headers,
            from,
            body: { userId: round.users[i % 2]!.id, promptId: round.prompt.id },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results) expect(r.status, r.body).toBeLessThan(500);
      expect(await database.db.select().from(votes).where(eq(votes.voterId, voter.id))).toHaveLength(1);
    });

    it("rate limits: one address gets 60 previews a minute through the proxy in all, whatever X-Forwarded-For it sends", async () => {
      const school = await insertTestSchool(database.db);
      for (let i = 0; i < 2; i++)
        await insertTestUser(database.db, { schoolId: school.id, gender: "female", showInPreview: true });
      const statuses: number[] = [];
      for (let i = 0; i < 70; i++) {
        // nginx replaces the header with the address it saw, so a forged one changes nothing.
        const res = await viaProxy(proxyPort, {
          path: "/api/prompts/unauthenticated?gender=female",
          from,
          headers: { "x-forwarded-for": `10.9.${i}.1` },
        });
        statuses.push(res.status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expect(statuses.slice(60)).toEqual(Array.from({ length: 10 }, () => 429));
    });

    it("unlock credits: two credits reveal two voters, however eight unlocks sent at once are spread over the processes", async () => {
      const school = await insertTestSchool(database.db);
      const owner = await insertTestUser(database.db, { schoolId: school.id, gender: "female", remainingUnlocks: 2 });
      const prompt = await insertTestPrompt(database.db);
      const voters = await Promise.all(
        Array.from({ length: 4 }, () => insertTestUser(database.db, { schoolId: school.id, gender: "male" })),
      );
      const cards = await database.db
        .insert(votes)
        .values(voters.map((v) => ({ voterId: v.id, recipientId: owner.id, promptId: prompt.id, ...deliveredAt() })))
        .returning({ id: votes.id });
      const headers = await sessionHeaders(owner.phone);
      const results = await Promise.all(
        [...cards, ...cards].map((card) =>
          viaProxy(proxyPort, {
            path: "/api/unlocks/unlock-user",
            method: "POST",
            headers,
            from,
            body: { userId: card.id },
          }),
        ),
      );
      for (const r of results) expect([200, 402], r.body).toContain(r.status);
      expect(await database.db.select().from(unlocks).where(eq(unlocks.ownerId, owner.id))).toHaveLength(2);
      const [left] = await database.db.select({ n: users.remainingUnlocks }).from(users).where(eq(users.id, owner.id));
      expect(left!.n).toBe(0);
    });

    it("candidate pool: a student who proves membership through one process is drawn at once by the other", async () => {
      const school = await insertTestSchool(database.db);
      const voter = await insertTestUser(database.db, { schoolId: school.id, gender: "male", preference: "female" });
      for (let i = 0; i < 2; i++) await insertTestUser(database.db, { schoolId: school.id, gender: "female" });
      const joiner = await insertTestUser(database.db, { schoolId: school.id, gender: "female", member: false });
      const [first, second] = replicaPorts as [number, number];
      const headers = await sessionHeaders(voter.phone);
      const ask = (
        port: number,
        path: string,
        extra: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
      ) => viaProxy(port, { path, from, headers: extra.headers ?? headers, method: extra.method, body: extra.body });

      // The second process loads the school's pool (the two members) for this round.
      const opened = await ask(second, "/api/prompts/random");
      expect(opened.status, opened.body).toBe(200);
      // The joiner proves a school address through the first process (the code read where the outbox keeps it).
      const joinerHeaders = await sessionHeaders(joiner.phone);
      const email = `joiner@${school.domain}`;
      const sent = await ask(first, "/api/trpc/schoolEmail.sendCode", {
        method: "POST",
        headers: joinerHeaders,
        body: { email },
      });
      expect(sent.status, sent.body).toBe(200);
      const [mail] = await database.db
        .select({ body: emailOutbox.body })
        .from(emailOutbox)
        .where(eq(emailOutbox.toAddress, email));
      const code = /\b(\d{6})\b/.exec(mail!.body)![1]!;
      const proved = await ask(first, "/api/trpc/schoolEmail.verify", {
        method: "POST",
        headers: joinerHeaders,
        body: { email, code },
      });
      expect(proved.status, proved.body).toBe(200);
      // Three students now; the two just shown were seen, so the next pair holds the newcomer —
      // unless the second process still drew from the pool it loaded (kept 15 s without a NOTIFY).
      await expect
        .poll(
          async () => {
            const next = await ask(second, "/api/prompts/random?skip=true");
            return (JSON.parse(next.body) as { users?: { id: string }[] }).users?.map((u) => u.id) ?? next.body;
          },
          { timeout: 2000, interval: 100 },
        )
        .toContain(joiner.id);
    });

    it("sign-out: logout and account deletion through one process are refused by the other within a second", async () => {
      const school = await insertTestSchool(database.db);
      const [first, second] = replicaPorts as [number, number];
      const ask = (port: number, path: string, token: string, extra: { method?: string; body?: unknown } = {}) =>
        viaProxy(port, { path, from, headers: { authorization: `Bearer ${token}` }, ...extra });
      const refusedBySecond = (token: string) =>
        expect
          .poll(async () => (await ask(second, "/api/users/me", token)).status, { timeout: 1000, interval: 20 })
          .toBe(401);

      const student = await insertTestUser(database.db, { schoolId: school.id, gender: "female" });
      const session = await startSession({ db: database.db, now: () => new Date(), secret: JWT_SECRET }, student.phone);
      expect((await ask(second, "/api/users/me", session.token)).status).toBe(200);
      const out = await viaProxy(first, {
        path: "/api/auth/logout",
        method: "POST",
        from,
        body: { refreshToken: session.refreshToken },
      });
      expect(out.status, out.body).toBe(200);
      await refusedBySecond(session.token);

      const leaving = await startSession({ db: database.db, now: () => new Date(), secret: JWT_SECRET }, student.phone);
      expect((await ask(second, "/api/users/me", leaving.token)).status).toBe(200);
      const deleted = await ask(first, "/api/users/delete-account", leaving.token, {
        method: "POST",
        body: { confirm: "DELETE" },
      });
      expect(deleted.status, deleted.body).toBe(200);
      await refusedBySecond(leaving.token);
      expect(
        (await ask(second, "/api/trpc/users.update", leaving.token, { method: "POST", body: { firstName: "Ghost" } }))
          .status,
      ).toBe(401);
      expect(await database.db.select().from(users).where(eq(users.phone, student.phone))).toHaveLength(0);
    });

    it("live events: a vote on either replica reaches the recipient's streams through the proxy within 3 s", async () => {
      const school = await insertTestSchool(database.db);
      const voter = await insertTestUser(database.db, { schoolId: school.id, gender: "male", preference: "female" });
      const recipient = await insertTestUser(database.db, { schoolId: school.id, gender: "female" });
      await insertTestUser(database.db, { schoolId: school.id, gender: "female" });
      const headers = await sessionHeaders(voter.phone);
      // Two streams of the recipient through nginx (least_conn puts the second beside the first's replica).
      const streams = [];
      for (let i = 0; i < 2; i++) {
        const s = await openEventStream(
          `http://127.0.0.1:${proxyPort}/api/live/events`,
          await sessionHeaders(recipient.phone),
        );
        expect(s.res.status).toBe(200);
        await s.next((e) => e.event === "ready");
        streams.push(s);
      }
      // A vote taken by each replica in turn: whichever holds a stream, one of the votes came from the other.
      for (const [i, port] of replicaPorts.entries()) {
        const opened = await viaProxy(port, { path: "/api/prompts/random", headers, from });
        expect(opened.status, opened.body).toBe(200);
        const round = JSON.parse(opened.body) as { prompt: { id: number }; users: { id: string }[] };
        const voted = await viaProxy(port, {
          path: "/api/votes/store",
          method: "POST",
          headers,
          from,
          body: { userId: recipient.id, promptId: round.prompt.id },
        });
        expect(voted.status, voted.body).toBe(200);
        for (const s of streams) {
          const votes = () => s.events.filter((e) => e.event === "vote").length;
          // Delivered at once, heard at the next delivery tick a second behind the clock.
          await expect.poll(votes, { timeout: 3_000, interval: 50 }).toBe(i + 1);
        }
      }
      for (const s of streams) await s.close();
    });

    it("a campus address holds more open streams than its 64 requests in progress, and its requests still answer", async () => {
      const school = await insertTestSchool(database.db);
      const students = await Promise.all(
        Array.from({ length: 16 }, () => insertTestUser(database.db, { schoolId: school.id, gender: "female" })),
      );
      // 16 students × 5 streams (the app's cap per student), all from 127.0.0.1 through nginx.
      const streams = [];
      for (const student of students) {
        const headers = await sessionHeaders(student.phone);
        for (let i = 0; i < 5; i++) {
          streams.push(await openEventStream(`http://127.0.0.1:${proxyPort}/api/live/events`, headers));
        }
      }
      expect(streams.map((s) => s.res.status)).toEqual(streams.map(() => 200));
      const headers = await sessionHeaders(students[0]!.phone);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => viaProxy(proxyPort, { path: "/api/users/me", headers, from: "127.0.0.1" })),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      for (const s of streams) await s.close();
    });

    it("a replica that stops leaves the other answering every request", async () => {
      const school = await insertTestSchool(database.db);
      const student = await insertTestUser(database.db, { schoolId: school.id, gender: "female" });
      const headers = await sessionHeaders(student.phone);
      await stopProcess(replicas[0]);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => viaProxy(proxyPort, { path: "/api/users/me", headers, from })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(JSON.parse(answers[0]!.body)).toMatchObject({ id: student.id });
    });
  },
);
