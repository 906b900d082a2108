/**
 * The live streams' costs, measured by hand (not the bench, not a test):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres pnpm --filter @quad/server exec tsx src/perf/live-load.ts
 *
 * Starts one real server process (src/index.ts) on a fresh Postgres database
 * and, from this process, (1) opens IDLE_STREAMS idle streams and reads the
 * server's resident memory and heap (its /metrics) before and after; (2)
 * casts votes with no stream open, then with STUDENTS students each holding
 * a stream, then with none again, and reports vote cycles a second (open a
 * round, vote) and, with the streams open, each vote's event latency at its
 * recipient (p50, p99). Prints the load average with each figure: on a
 * shared 2-core machine, read them with it.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { loadavg } from "node:os";
import path from "node:path";
import { Round } from "@quad/contracts";
import * as schema from "@quad/db/schema";
import { insertTestSchool, insertTestUser } from "@quad/db/testing";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { signAccessToken } from "../modules/auth/tokens";
import { freePort } from "../test/processes";

// Run by hand: it reads this shell's environment, and hands it to its server as the tests do.
/* eslint-disable no-restricted-syntax */
const IDLE_STREAMS = Number(process.env.IDLE_STREAMS ?? 10_000);
const STUDENTS = Number(process.env.STUDENTS ?? 1_000);
const VOTERS_PER_PHASE = 225;
const VOTES_EACH = 12;
const CONCURRENCY = 16;
const SECRET = "live-load-secret-live-load-secret-0123456789";
const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const inherited = process.env;
/* eslint-enable no-restricted-syntax */

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

async function main() {
  const dbName = `quad_live_load_${Date.now()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const [port, metricsPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...inherited,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATABASE_URL: url.toString(),
      REDIS_URL: "",
      JOBS_ENABLED: "false",
      SEED_DEMO: "false",
      LOG_LEVEL: "fatal",
      JWT_SECRET: SECRET,
    },
  });
  const client = postgres(url.toString(), { max: 4, onnotice: () => {} });
  try {
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 600) throw new Error("the server did not start");
      await sleep(250);
    }
    const db = drizzle(client, { schema }) as unknown as Parameters<typeof insertTestSchool>[0];
    const school = await insertTestSchool(db);
    const count = Math.max(STUDENTS, Math.ceil(IDLE_STREAMS / 5));
    const students: { id: string; token: string }[] = [];
    for (let i = 0; i < count; i++) {
      const user = await insertTestUser(db, { schoolId: school.id, gender: "female", preference: "female" });
      const { token } = await signAccessToken(
        SECRET,
        { phone: user.phone, sessionId: randomUUID(), familyId: randomUUID() },
        new Date(),
      );
      students.push({ id: user.id, token });
    }
    console.log(`${count} students; load ${load()}`);

    // (1) Memory per idle stream.
    await memory(base, metricsPort, students);
    // (2) Vote throughput without and with streams, and event latency.
    const voters = (phase: number) => students.slice(phase * VOTERS_PER_PHASE, (phase + 1) * VOTERS_PER_PHASE);
    // Alternated, so a change in the machine's load weighs on both alike.
    for (let phase = 0; phase < 4; phase++) {
      if (phase % 2 === 0) {
        const without = await votePhase(base, voters(phase));
        console.log(`no streams: ${without.rate.toFixed(1)} vote cycles/s (${without.votes} votes); load ${load()}`);
        continue;
      }
      const streams = await openStreams(base, students.slice(0, STUDENTS));
      const withStreams = await votePhase(base, voters(phase), streams);
      console.log(
        `${streams.size} streams: ${withStreams.rate.toFixed(1)} vote cycles/s (${withStreams.votes} votes); event after the vote's answer p50 ${pct(withStreams.latencies, 0.5)} ms, p99 ${pct(withStreams.latencies, 0.99)} ms; from the vote's send p50 ${pct(withStreams.fromSend, 0.5)} ms, p99 ${pct(withStreams.fromSend, 0.99)} ms; ${withStreams.latencies.length} events of ${withStreams.expected} votes for a student with a stream; load ${load()}`,
      );
      for (const s of streams.all) s.close();
      await sleep(2000);
    }
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    await client.end({ timeout: 5 });
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end({ timeout: 5 });
    agent.destroy();
  }
}

const pct = (values: number[], p: number) => {
  if (values.length === 0) return "n/a";
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(0);
};

async function metric(metricsPort: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return Number(line?.split(" ").pop());
}

interface Stream {
  close(): void;
  /** Resolves at the first event whose data includes `text`. */
  waitFor(text: string): Promise<number>;
}

function openStream(base: string, token: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const waiters: { text: string; resolve: (at: number) => void }[] = [];
    const request = http.get(`${base}/api/live/events`, {
      agent: false,
      headers: { authorization: `Bearer ${token}` },
    });
    request.once("error", reject);
    request.once("response", (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
      response.setEncoding("utf8");
      let ready = false;
      response.on("data", (chunk: string) => {
        const at = performance.now();
        if (!ready && chunk.includes("event: ready")) {
          ready = true;
          resolve(stream);
        }
        for (let i = waiters.length - 1; i >= 0; i--) {
          if (chunk.includes(waiters[i]!.text)) waiters.splice(i, 1)[0]!.resolve(at);
        }
      });
      response.on("error", () => {});
    });
    const stream: Stream = {
      close: () => request.destroy(),
      waitFor: (text) => new Promise((r) => waiters.push({ text, resolve: r })),
    };
  });
}

async function openStreams(base: string, students: { id: string; token: string }[], perStudent = 1) {
  const streams = new Map<string, Stream>();
  const all: Stream[] = [];
  for (let i = 0; i < students.length; i += 200) {
    const batch = students.slice(i, i + 200);
    for (let k = 0; k < perStudent; k++) {
      const opened = await Promise.all(batch.map((s) => openStream(base, s.token)));
      opened.forEach((stream, j) => {
        all.push(stream);
        if (k === 0) streams.set(batch[j]!.id, stream);
      });
    }
  }
  return Object.assign(streams, { all });
}

async function memory(base: string, metricsPort: number, students: { id: string; token: string }[]) {
  // Warm: a few streams opened and closed, so code and pools are loaded before the first reading.
  const warm = await openStreams(base, students.slice(0, 20));
  warm.all.forEach((s) => s.close());
  await sleep(3000);
  const rss0 = await metric(metricsPort, "process_resident_memory_bytes");
  const heap0 = await metric(metricsPort, "nodejs_heap_size_used_bytes");
  const started = performance.now();
  const streams = await openStreams(base, students.slice(0, IDLE_STREAMS / 5), 5);
  const openedMs = performance.now() - started;
  await sleep(5000);
  const rss1 = await metric(metricsPort, "process_resident_memory_bytes");
  const heap1 = await metric(metricsPort, "nodejs_heap_size_used_bytes");
  const n = streams.all.length;
  console.log(
    `${n} idle streams (opened in ${(openedMs / 1000).toFixed(1)} s): RSS ${(rss0 / 2 ** 20).toFixed(0)} → ${(rss1 / 2 ** 20).toFixed(0)} MiB, ${((rss1 - rss0) / n / 1024).toFixed(1)} KiB a stream; heap used ${(heap0 / 2 ** 20).toFixed(0)} → ${(heap1 / 2 ** 20).toFixed(0)} MiB, ${((heap1 - heap0) / n / 1024).toFixed(1)} KiB a stream; load ${load()}`,
  );
  streams.all.forEach((s) => s.close());
  await sleep(3000);
}

function call(base: string, method: string, url: string, token: string, body?: unknown) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(`${base}${url}`, {
      method,
      agent,
      headers: {
        authorization: `Bearer ${token}`,
        ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
      },
    });
    request.once("error", reject);
    request.once("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (c: string) => (text += c));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.end(payload);
  });
}

async function votePhase(base: string, voters: { id: string; token: string }[], streams?: Map<string, Stream>) {
  const latencies: number[] = [];
  const fromSend: number[] = [];
  const pending: Promise<void>[] = [];
  let votes = 0;
  let expected = 0;
  const queue = voters.flatMap((v) => Array.from({ length: VOTES_EACH }, () => v));
  // One voter's votes in turn (a voter has one open round), voters side by side.
  const byVoter = new Map<string, number>();
  const started = performance.now();
  async function worker() {
    for (;;) {
      const index = queue.findIndex((v) => !byVoter.get(v.id));
      if (index < 0) return;
      const voter = queue.splice(index, 1)[0]!;
      byVoter.set(voter.id, 1);
      const opened = await call(base, "GET", "/api/prompts/random", voter.token);
      const round = Round.safeParse(JSON.parse(opened.body));
      if (round.success) {
        const recipient = round.data.users[0].id;
        // Listening before the vote is sent: the event may come before the vote's answer.
        const stream = streams?.get(recipient);
        const arrival = stream
          ? Promise.race([stream.waitFor('"type":"vote"'), sleep(5000).then(() => -1)])
          : undefined;
        const sent = performance.now();
        const voted = await call(base, "POST", "/api/votes/store", voter.token, {
          userId: recipient,
          promptId: round.data.prompt.id,
        });
        const answered = performance.now();
        if (voted.status === 200) {
          votes += 1;
          if (arrival) {
            expected += 1;
            const waited = arrival.then((at) => {
              if (at < 0) return;
              latencies.push(Math.max(0, at - answered));
              fromSend.push(at - sent);
            });
            pending.push(waited);
          }
        }
      }
      byVoter.set(voter.id, 0);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(pending);
  return { rate: votes / seconds, votes, expected, latencies, fromSend };
}

await main();
