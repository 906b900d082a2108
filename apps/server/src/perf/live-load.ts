/**
 * The live streams' costs, measured by hand (not the bench, not a test):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres pnpm --filter @quad/server exec tsx src/perf/live-load.ts
 *
 * (IDLE_STREAMS, STUDENTS and PAIRS in the environment change the sizes below.)
 * Starts one real server process (src/index.ts) on a fresh Postgres database
 * and, from this process, (1) opens IDLE_STREAMS idle streams and reads the
 * server's resident memory and heap (its /metrics) before and after; (2)
 * after one unmeasured phase of votes, runs PAIRS pairs of equal vote phases,
 * one with no stream open ("off") and one with STUDENTS students each holding
 * a stream ("on"), in the order off-on, on-off, off-on, ... Every phase casts
 * the same number of vote cycles (open a round, vote), CONCURRENCY at a time,
 * by voters of its own who have not voted yet, each spending their whole
 * allowance, from the same pool of candidates, after a warm-up of its own
 * (each worker from a loopback address of its own: see workerAddress).
 * Each phase prints its rate, the server's CPU per cycle (its
 * process_cpu_seconds_total: steadier than the rate on a shared machine),
 * this process's (it shares the cores) and the load average; "on" phases also each vote's event latency at its
 * recipient (p50, p99). Then the medians off and on and the cost of the
 * streams in percent. On a shared 2-core machine, read them with the load.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { loadavg } from "node:os";
import path from "node:path";
import { Round, VOTES_PER_BATCH } from "@quad/contracts";
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
/** Off/on pairs of vote phases: an even count puts a steady drift (the votes table growing) on both sides alike. */
const PAIRS = Number(process.env.PAIRS ?? 4);
const SECRET = "live-load-secret-live-load-secret-0123456789";
const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const inherited = process.env;
/* eslint-enable no-restricted-syntax */
const CONCURRENCY = 16;
/** A voter's whole allowance: every voter ends in the same cooldown, none meets it early. */
const VOTES_EACH = VOTES_PER_BATCH;
/** Voters a phase measures, per worker; one more per worker warms the phase up first. */
const VOTERS_EACH_WORKER = 14;
const VOTERS_PER_PHASE = CONCURRENCY * (VOTERS_EACH_WORKER + 1);

type Student = { id: string; token: string };

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
      // Delivered at once: the run measures the streams, not the delivery window.
      VOTE_DELIVERY_WINDOW_S: "0.001",
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
    // [bystanders | warm-up phase's voters | phase 0's voters | phase 1's | ...]: every student is inserted
    // before the first vote, so every phase draws from the same pool of candidates. An "on" phase streams
    // for its own voters (their app is open) and the bystanders, STUDENTS in all.
    const bystanders = Math.max(0, STUDENTS - VOTERS_PER_PHASE);
    const count = Math.max(bystanders + (2 * PAIRS + 1) * VOTERS_PER_PHASE, Math.ceil(IDLE_STREAMS / 5));
    const students: Student[] = [];
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
    const voters = (block: number) =>
      students.slice(bystanders + block * VOTERS_PER_PHASE, bystanders + (block + 1) * VOTERS_PER_PHASE);
    const warm = await votePhase(base, metricsPort, voters(0));
    console.log(`warm-up: ${warm.votes} vote cycles${failedText(warm.failed)}, not counted; load ${load()}`);
    const results: PhaseResult[] = [];
    for (let i = 0; i < 2 * PAIRS; i++) {
      // off-on, on-off, off-on, ...
      const on = i % 4 === 1 || i % 4 === 2;
      const own = voters(i + 1);
      // The streams are open during "on" phases only: "off" then costs exactly what no stream costs (their
      // sweep timer and heartbeats stop too). Opening and closing fall outside the timed part: settle() waits
      // until the server's CPU stops falling after them, before any phase alike.
      const streams = on
        ? await openStreams(base, [...own, ...students.slice(0, bystanders)].slice(0, STUDENTS))
        : undefined;
      const idle = await settle(metricsPort);
      await votePhase(base, metricsPort, own.slice(0, CONCURRENCY), streams);
      const result = { on, idle, ...(await votePhase(base, metricsPort, own.slice(CONCURRENCY), streams)) };
      results.push(result);
      console.log(
        `phase ${i + 1} ${on ? `on (${streams!.size} streams)` : "off (no stream)"}: ${result.votes} vote cycles${failedText(result.failed)} in ${result.seconds.toFixed(1)} s, ${result.rate.toFixed(1)} a second; server CPU ${result.serverMs.toFixed(2)} ms a cycle (idle before: ${(idle * 100).toFixed(0)} % of a core), this process ${result.harnessMs.toFixed(2)} ms${on ? `; ${latencyText(result)}` : ""}; load ${load()}`,
      );
      streams?.all.forEach((s) => s.close());
    }
    summary(results);
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    await client.end({ timeout: 5 });
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end({ timeout: 5 });
    agent.destroy();
  }
}

type PhaseResult = Awaited<ReturnType<typeof votePhase>> & { on: boolean; idle: number };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const failedText = (failed: Map<number, number>) =>
  failed.size === 0
    ? ""
    : ` (failed: ${[...failed].map(([status, n]) => `${n} answered ${status}`).join(", ")}; not comparable)`;

const latencyText = (r: { latencies: number[]; fromSend: number[]; expected: number }) =>
  `event after the vote's answer p50 ${pct(r.latencies, 0.5)} ms, p99 ${pct(r.latencies, 0.99)} ms; from the vote's send p50 ${pct(r.fromSend, 0.5)} ms, p99 ${pct(r.fromSend, 0.99)} ms; ${r.latencies.length} events of ${r.expected} votes for a student with a stream`;

function summary(results: PhaseResult[]) {
  const side = (on: boolean) => {
    const phases = results.filter((r) => r.on === on);
    const rates = phases.map((r) => r.rate);
    const cpu = phases.map((r) => r.serverMs);
    console.log(
      `${on ? "on " : "off"}: ${rates.map((r) => r.toFixed(0)).join(", ")} vote cycles a second, median ${median(rates).toFixed(1)}; server CPU ${cpu.map((c) => c.toFixed(2)).join(", ")} ms a cycle, median ${median(cpu).toFixed(2)}`,
    );
    return { rate: median(rates), cpu: median(cpu), phases };
  };
  const off = side(false);
  const on = side(true);
  const percent = (a: number, b: number) => `${a >= b ? "+" : ""}${((a / b - 1) * 100).toFixed(1)} %`;
  console.log(
    `with ${STUDENTS} streams (medians, on vs off): vote cycles a second ${percent(on.rate, off.rate)}, server CPU a cycle ${percent(on.cpu, off.cpu)}; load ${load()}`,
  );
  const all = {
    latencies: on.phases.flatMap((r) => r.latencies),
    fromSend: on.phases.flatMap((r) => r.fromSend),
    expected: on.phases.reduce((n, r) => n + r.expected, 0),
  };
  console.log(`all "on" phases: ${latencyText(all)}`);
  const refused = results.filter((r) => r.failed.size > 0).length;
  if (refused > 0) console.log(`${refused} phases had refused cycles: their figures are not comparable`);
}

/**
 * Waits until the server's CPU use stops falling (what opening or closing
 * streams left behind is done), at least 2 s; returns its share of a core
 * over the last second.
 */
async function settle(metricsPort: number) {
  let before = await metric(metricsPort, "process_cpu_seconds_total");
  let previous = Infinity;
  for (let i = 0; i < 20; i++) {
    await sleep(1000);
    const now = await metric(metricsPort, "process_cpu_seconds_total");
    const used = now - before;
    before = now;
    if (i >= 1 && (used < 0.02 || used > 0.8 * previous)) return used;
    previous = used;
  }
  return previous;
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

/**
 * Each worker sends from an address of its own in 127.0.0.0/8 (all of it is
 * this machine): from one address, the votes of a fast phase would reach the
 * per-address write limit (10,000 a minute) and be refused, and whether a
 * phase met it would depend on the phase before.
 */
const workerAddress = (worker: number) => `127.42.0.${worker + 1}`;

function call(from: string, base: string, method: string, url: string, token: string, body?: unknown) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(`${base}${url}`, {
      method,
      agent,
      localAddress: from,
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

/**
 * Each voter's VOTES_EACH cycles in turn (a voter has one open round), by
 * CONCURRENCY workers side by side; times the cycles and the server's CPU.
 */
async function votePhase(base: string, metricsPort: number, voters: Student[], streams?: Map<string, Stream>) {
  const latencies: number[] = [];
  const fromSend: number[] = [];
  const pending: Promise<void>[] = [];
  let votes = 0;
  /** Refused cycles by status: none is expected (a phase with any is not like the others). */
  const failed = new Map<number, number>();
  const fail = (status: number) => void failed.set(status, (failed.get(status) ?? 0) + 1);
  let expected = 0;
  const queue = [...voters];
  async function cycle(from: string, voter: Student) {
    const opened = await call(from, base, "GET", "/api/prompts/random", voter.token);
    const round = Round.safeParse(JSON.parse(opened.body));
    if (!round.success) return fail(opened.status);
    const recipient = round.data.users[0].id;
    // Listening before the vote is sent: the event may come before the vote's answer.
    const stream = streams?.get(recipient);
    const arrival = stream ? Promise.race([stream.waitFor('"type":"vote"'), sleep(5000).then(() => -1)]) : undefined;
    const sent = performance.now();
    const voted = await call(from, base, "POST", "/api/votes/store", voter.token, {
      userId: recipient,
      promptId: round.data.prompt.id,
    });
    const answered = performance.now();
    if (voted.status !== 200) return fail(voted.status);
    votes += 1;
    if (!arrival) return;
    expected += 1;
    const waited = arrival.then((at) => {
      if (at < 0) return;
      latencies.push(Math.max(0, at - answered));
      fromSend.push(at - sent);
    });
    pending.push(waited);
  }
  async function worker(_: unknown, index: number) {
    const from = workerAddress(index);
    for (let voter = queue.shift(); voter; voter = queue.shift()) {
      for (let k = 0; k < VOTES_EACH; k++) await cycle(from, voter);
    }
  }
  const cpu0 = await metric(metricsPort, "process_cpu_seconds_total");
  const harness0 = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  const harness = process.cpuUsage(harness0);
  const cpu1 = await metric(metricsPort, "process_cpu_seconds_total");
  await Promise.all(pending);
  const cycles = Math.max(1, votes);
  return {
    rate: votes / seconds,
    seconds,
    votes,
    failed,
    serverMs: ((cpu1 - cpu0) * 1000) / cycles,
    harnessMs: (harness.user + harness.system) / 1000 / cycles,
    expected,
    latencies,
    fromSend,
  };
}

await main();
