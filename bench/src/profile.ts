/**
 * `pnpm --filter @quad/bench profile --case <name>`: one hot path under load
 * (50 connections) with the server's V8 CPU profile on, then where the time
 * went. Prints CPU time per request of the server process and of PostgreSQL
 * (from /proc, so it does not depend on how busy the machine is), the
 * functions with the most self time and the packages they belong to, and
 * keeps the .cpuprofile (open it in Chrome DevTools) under bench/reports/profiles.
 *
 * Cases: select1, me, for-user, rounds (open a round then vote, passes over
 * the voters), votes (the same passes, only the votes measured); over REST,
 * or as the web client calls them with `--protocol tRPC`.
 * `--pg-perf` also samples Postgres' side with Linux perf; `--env KEY=VALUE`
 * (repeatable) sets the server's environment, e.g. `--env LOG_LEVEL=info`
 * for production's request logs; `--otlp` turns tracing on, its spans sent
 * to a local stand-in collector (otlp-sink.ts).
 * Uses the big campus `pnpm bench` seeded (seeding it first when missing).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres, { type Sql } from "postgres";
import { BIG_CAMPUS, prepareCampus } from "./campus";
import { cpuPerRequest, emptyMeasurement, load, percentile, rps, type Measurement } from "./load";
import type { Protocol } from "./report";
import { openRoundRequest, trpcGet, voteRequest } from "./requests";
import { startOtlpSink, type OtlpSink } from "./otlp-sink";
import { perfAvailable, startPgPerf, type PgPerf } from "./pg-perf";
import { POOL_SIZE, REPO_ROOT, ensureServerBuilt, startServer } from "./server";
import { accessToken, openRounds, pickVoters, resetVoters } from "./voters";

const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
  options: {
    case: { type: "string", default: "me" },
    // REST or tRPC (me, for-user and rounds; select1 is a plain route either way).
    protocol: { type: "string", default: "REST" },
    duration: { type: "string", default: "10" },
    voters: { type: "string", default: "500" },
    // The server's DATABASE_POOL_SIZE.
    "pool-size": { type: "string", default: POOL_SIZE },
    // CPU per request only, without the V8 profiler's own cost.
    "no-cpu-prof": { type: "boolean", default: false },
    // Also sample the server's Postgres backends with Linux perf (see pg-perf.ts).
    "pg-perf": { type: "boolean", default: false },
    // KEY=VALUE for the server's environment, repeatable (e.g. --env LOG_LEVEL=info, as production logs).
    env: { type: "string", multiple: true, default: [] },
    // Tracing on (OTEL_EXPORTER_OTLP_ENDPOINT), exporting to a local sink that answers 200.
    otlp: { type: "boolean", default: false },
  },
});
const log = (line: string) => console.log(`[profile] ${line}`);
if (args.protocol !== "REST" && args.protocol !== "tRPC") throw new Error("--protocol is REST or tRPC");
const protocol: Protocol = args.protocol;
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/**
 * Self time by function and by package, from the newest .cpuprofile in `dir`:
 * only the samples of the last `windowS` seconds before the profile ended (the
 * measured run and the shutdown after it), so start-up (loading modules, the
 * warm-up) does not count.
 */
function summarize(dir: string, windowS: number): void {
  const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  if (files.length === 0) return log(`no profile written in ${dir}`);
  const file = files.map((f) => path.join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const profile = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
    endTime: number;
    startTime: number;
  };
  const hitCount = new Map<number, number>();
  const from = profile.endTime - windowS * 1e6;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (t >= from) hitCount.set(id, (hitCount.get(id) ?? 0) + 1);
  });
  // Shares of the busy samples: idle time (waiting on Postgres, or between passes) would
  // otherwise make the same work look smaller in a case with more waiting.
  const total = profile.nodes.reduce(
    (sum, n) => sum + (n.callFrame.functionName === "(idle)" ? 0 : (hitCount.get(n.id) ?? 0)),
    0,
  );
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = hitCount.get(node.id) ?? 0;
    if (hits === 0 || node.callFrame.functionName === "(idle)") continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^file:\/\//, "").replace(`${REPO_ROOT}/`, "")}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
    const pkg =
      url.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/)?.[1] ??
      (url.startsWith("node:") ? "node core" : url ? "app" : functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, hits]) => `  ${((100 * hits) / total).toFixed(1).padStart(5)} %  ${name}`);
  console.log(
    `\nSelf time by package, share of busy samples (${file.replace(`${REPO_ROOT}/`, "")}):\n${top(byPackage, 15).join("\n")}`,
  );
  console.log(`\nSelf time by function:\n${top(byFunction, 30).join("\n")}`);
}

async function pgPerfIfAsked(sql: Sql, dir: string): Promise<PgPerf | null> {
  if (!args["pg-perf"]) return null;
  if (perfAvailable()) return startPgPerf(sql, dir);
  log("--pg-perf: no perf on this machine (Debian: apt-get install linux-perf); Postgres is not sampled");
  return null;
}

async function main() {
  const benchUrl = process.env.DATABASE_URL?.trim() || "postgres://postgres@127.0.0.1:5432/quad_bench";
  const spec = { ...BIG_CAMPUS, database: new URL(benchUrl).pathname.replace(/^\//, "") || "quad_bench" };
  ensureServerBuilt(log);
  const campus = await prepareCampus(benchUrl, spec, log);

  const profileDir = path.join(
    REPO_ROOT,
    "bench/reports/profiles",
    `${args.case}-${new Date().toISOString().replace(/[:.]/g, "-")}`,
  );
  mkdirSync(profileDir, { recursive: true });
  const jwtSecret = randomBytes(32).toString("hex");
  const sink: OtlpSink | null = args.otlp ? await startOtlpSink() : null;
  const server = await startServer({
    databaseUrl: campus.url,
    jwtSecret,
    name: `profile-${args.case}`,
    nodeArgs: args["no-cpu-prof"] ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
    env: {
      DATABASE_POOL_SIZE: args["pool-size"],
      ...(sink ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint } : {}),
      ...Object.fromEntries(
        args.env.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
      ),
    },
  });
  const sql = postgres(campus.url, { max: 2, onnotice: () => {} });
  let m: Measurement = emptyMeasurement();
  let pgPerf: PgPerf | null = null;
  try {
    const voters = await pickVoters(sql, campus.schoolId, Number(args.voters), jwtSecret, campus.deepPhone);
    const deep = { authorization: `Bearer ${await accessToken(jwtSecret, campus.deepPhone)}` };
    const durationS = Number(args.duration);
    const mePath = protocol === "REST" ? "/api/users/me" : trpcGet("users.me", undefined);
    /** Passes over the voters, each opening a round then voting in it; the openings measured too, or only the votes. */
    const roundPasses = async (measureOpenings: boolean) => {
      const into = emptyMeasurement();
      await resetVoters(sql, voters);
      for (let pass = 0; pass < 11; pass++) {
        await load(server.baseUrl, {
          mode: "each-once",
          into: measureOpenings ? into : emptyMeasurement(),
          cpu: server.cpu,
          requests: voters.map((v) => openRoundRequest(protocol, v)),
        });
        const rounds = await openRounds(sql, voters);
        const votes = voters.filter((v) => rounds.has(v.id)).map((v) => voteRequest(protocol, v, rounds.get(v.id)!));
        await load(server.baseUrl, { mode: "each-once", into, cpu: server.cpu, requests: votes });
      }
      return into;
    };
    const forUserPath =
      protocol === "REST" ? "/api/votes/for-user?page=1&limit=10" : trpcGet("inbox.received", { page: 1, limit: 10 });
    const cases: Record<string, () => Promise<Measurement>> = {
      select1: () =>
        load(server.baseUrl, {
          mode: "duration",
          durationS,
          cpu: server.cpu,
          requests: [{ method: "GET", path: "/api/bench/select1" }],
        }),
      me: () =>
        load(server.baseUrl, {
          mode: "duration",
          durationS,
          cpu: server.cpu,
          requests: voters.map((v) => ({ method: "GET", path: mePath, headers: v.headers })),
        }),
      "for-user": () =>
        load(server.baseUrl, {
          mode: "duration",
          durationS,
          cpu: server.cpu,
          requests: [{ method: "GET", path: forUserPath, headers: deep }],
        }),
      rounds: () => roundPasses(true),
      votes: () => roundPasses(false),
    };
    const run = cases[args.case];
    if (!run) throw new Error(`no case ${args.case}; one of ${Object.keys(cases).join(", ")}`);
    // Warm-up, then measure.
    await load(server.baseUrl, {
      mode: "duration",
      durationS: 2,
      requests: voters.slice(0, 50).map((v) => ({ method: "GET", path: "/api/users/me", headers: v.headers })),
    });
    pgPerf = await pgPerfIfAsked(sql, profileDir);
    m = await run();
    await pgPerf?.stop();
    const perRequest = (of: "server" | "postgres") => `${cpuPerRequest(m, of).toFixed(0)} µs`;
    log(
      `${args.case} over ${protocol}: ${m.requests} requests, ${rps(m).toFixed(0)} req/s, p50 ${percentile(m, 50).toFixed(2)} ms, p99 ${percentile(m, 99).toFixed(2)} ms`,
    );
    log(`CPU per request: server ${perRequest("server")}, PostgreSQL ${perRequest("postgres")}`);
    if (sink) {
      // The exporter batches every 5 s: what it sent by the end of the run.
      const { requests, bytes, spans } = sink.received();
      log(
        `tracing on: the local sink took ${requests} OTLP exports, ${spans} spans, ${(bytes / 1e6).toFixed(1)} MB (warm-up included)`,
      );
    }
    pgPerf?.summarize(log);
  } finally {
    await pgPerf?.stop();
    await sql.end({ timeout: 5 });
    await server.stop();
    await sink?.close();
  }
  // The measured run, and a second for the shutdown after it.
  if (!args["no-cpu-prof"]) summarize(profileDir, m.seconds + 1);
}

await main();
