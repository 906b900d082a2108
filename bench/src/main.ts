/**
 * `pnpm bench`: seeds (or reuses) a 50,000-student campus with
 * 1,000,000 votes and a 500-student one on Postgres, starts the built server
 * against each, measures the hot paths over REST and tRPC at 50 connections
 * from 127.0.0.1, and prints a table and the budgets, met or missed.
 *
 *   pnpm bench [--duration S] [--voters N] [--only big|small] [--cases rounds|web|observability] [--pool-size N]
 *   DATABASE_URL (default postgres://postgres@127.0.0.1:5432/quad_bench) names the
 *   server and the big campus's database; the small one is <name>_500.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { BIG_CAMPUS, SMALL_CAMPUS, prepareCampus, type Campus } from "./campus";
import {
  CONNECTIONS,
  DURATION_S,
  emptyMeasurement,
  load,
  percentile,
  rps,
  type BenchRequest,
  type Measurement,
} from "./load";
import { campusBudgets, growthTrends, READ_P99_MS, WRITE_P99_MS, writeTrends, type StatedLoad } from "./budgets";
import {
  benchObservability,
  deployedScrapeIntervalS,
  observabilityLines,
  type ObservabilityVariant,
} from "./observability";
import { startOtlpSink } from "./otlp-sink";
import { paced } from "./paced";
import { openRoundRequest, trpcGet, trpcInput, voteRequest } from "./requests";
import { budgetLines, ratio, table, type Budget, type CampusReport, type Protocol, type Row } from "./report";
import { preparePgbench, runPgbench, runPgbenchMedian, type PgbenchResult } from "./pgbench";
import { POOL_SIZE, REPO_ROOT, ensureServerBuilt, startServer } from "./server";
import {
  accessToken,
  forceOpenRounds,
  openRounds,
  pickVoters,
  resetVoters,
  votesCastSince,
  type OpenRound,
  type Voter,
} from "./voters";

/** docs/architecture.md: 12 votes, then an hour of cooldown. */
const VOTES_PER_BATCH = 12;
const PAGE_SIZE = 10;
const DEEP_PAGE = 1000;

// `pnpm bench -- --only big` passes the `--` through; options follow it either way.
const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
  options: {
    duration: { type: "string", default: String(DURATION_S) },
    // Voters per round pass (at most the campus's students): each pass is one autocannon run with fresh
    // connections and a draining tail, so passes of 500 (a quarter second) measured those more than the
    // paths; 2,000 make each pass about a second, closer to pgbench's steady 10 s (votes went from about
    // 1,700 to 2,700 req/s on the same machine, 2026-11-25).
    voters: { type: "string", default: "2000" },
    only: { type: "string" },
    // `rounds`: only the anchors and the round cases (opening, voting, the allowance races).
    // `web`: only the SELECT 1 ceilings and the web-tier line (the endpoint against the official adapter).
    // `observability`: server CPU per request with metrics on against off (observability.ts).
    cases: { type: "string" },
    // The server's DATABASE_POOL_SIZE.
    "pool-size": { type: "string", default: POOL_SIZE },
  },
});
const durationS = Number(args.duration);
/** `--cases observability`: what watching the server costs, each variant against the server unwatched. */
const OBSERVABILITY_VARIANTS: ObservabilityVariant[] = [
  {
    name: `metrics on (METRICS_PORT, scraped every ${deployedScrapeIntervalS()} s as the repo's Prometheus does)`,
    env: (port) => ({ METRICS_PORT: String(port) }),
    budgeted: true,
    scrapeEveryS: deployedScrapeIntervalS(),
  },
  // Two servers alike, to show how far apart the bench puts the same thing on this machine.
  { name: "noise (the same server on both sides)", env: () => ({}), budgeted: false },
];
const log = (line: string) => console.log(`[bench] ${line}`);

interface CampusRun {
  report: CampusReport;
  budgets: Budget[];
  allowance: string;
  anchors: string;
}

async function benchCampus(campus: Campus, label: string, pgbench: URL | null): Promise<CampusRun> {
  const jwtSecret = randomBytes(32).toString("hex");
  const server = await startServer({
    databaseUrl: campus.url,
    jwtSecret,
    name: campus.spec.database,
    env: { DATABASE_POOL_SIZE: args["pool-size"] },
  });
  const sql = postgres(campus.url, { max: 2, onnotice: () => {} });
  const rows: Row[] = [];
  const base = server.baseUrl;
  const run = (requests: BenchRequest[]) => load(base, { requests, mode: "duration", durationS, cpu: server.cpu });
  try {
    log(`${label}: server on ${base}`);
    const voterCount = Math.min(Number(args.voters), campus.spec.students);
    const voters = await pickVoters(sql, campus.schoolId, voterCount, jwtSecret, campus.deepPhone);
    const deep = { authorization: `Bearer ${await accessToken(jwtSecret, campus.deepPhone)}` };

    // Warm-up: JIT and the pool's connections (the round paths get their own below).
    await load(base, { requests: [{ method: "GET", path: "/api/bench/select1" }], mode: "duration", durationS: 2 });
    await load(base, {
      requests: voters.slice(0, 50).map((v) => ({ method: "GET", path: "/api/users/me", headers: v.headers })),
      mode: "duration",
      durationS: 1,
    });

    log("ceilings");
    const select1: Record<Protocol, BenchRequest[]> = {
      REST: [{ method: "GET", path: "/api/bench/select1" }],
      // The tRPC ceiling is what the app's /api/trpc serves (trpc/endpoint.ts), called as the web client calls.
      tRPC: [{ method: "GET", path: "/api/bench/trpc/select1?batch=1" }],
    };
    const restCeiling: Row = {
      path: "GET SELECT 1 (plain Fastify route)",
      protocol: "REST",
      m: await run(select1.REST),
    };
    const trpcCeiling: Row = {
      path: "GET SELECT 1 (app's tRPC endpoint)",
      protocol: "tRPC",
      m: await run(select1.tRPC),
    };
    // For comparison, against the plain route: the official adapter alone, and createCaller in a route.
    const adapterRow: Row = {
      path: "GET SELECT 1 (official tRPC adapter) vs plain",
      protocol: "tRPC",
      m: await run([{ method: "GET", path: "/api/bench/trpc-adapter/select1?batch=1" }]),
      ceiling: restCeiling,
    };
    const endpointRow: Row = {
      path: "GET SELECT 1 (app's tRPC endpoint) vs plain",
      protocol: "tRPC",
      m: trpcCeiling.m,
      ceiling: restCeiling,
    };
    const callerRow: Row = {
      path: "GET SELECT 1 (createCaller in a Fastify route)",
      protocol: "REST",
      m: await run([{ method: "GET", path: "/api/bench/caller/select1" }]),
      ceiling: restCeiling,
    };
    rows.push(restCeiling, trpcCeiling, endpointRow, adapterRow, callerRow);
    if (args.cases === "web") {
      const ceilings = `SELECT 1 ceilings ${rps(restCeiling.m).toFixed(0)} req/s (REST), ${rps(trpcCeiling.m).toFixed(0)} req/s (tRPC).`;
      return {
        report: { label, rows },
        budgets: campusBudgets(rows, NO_PGBENCH, [], new Map()),
        allowance: "",
        anchors: ceilings,
      };
    }
    if (!pgbench) throw new Error("pgbench's database was not prepared");
    const ceilingOf = (protocol: Protocol) => (protocol === "REST" ? restCeiling : trpcCeiling);

    const statedLoads: StatedLoad[] = [];
    /** A half-rate pass as a row of the table, under the row it halves. */
    const halfRateRow = (row: Row, pass: { rate: number; m: Measurement }) => {
      rows.splice(rows.indexOf(row) + 1, 0, {
        path: `${row.path} at ½ rate`,
        protocol: row.protocol,
        m: pass.m,
        halfRate: pass.rate,
      });
    };
    /** `requests` paced at half of the row's maximum rate, shown as a row under it. */
    const halfRatePass = async (name: string, row: Row, requests: BenchRequest[]) => {
      const rate = rps(row.m) / 2;
      log(`${name} at ${Math.round(rate)} req/s (half its maximum)`);
      const pass = { rate, m: await paced(base, { requests, mode: "duration", durationS, rate, cpu: server.cpu }) };
      halfRateRow(row, pass);
      return pass;
    };
    const atHalfRate = async (name: string, row: Row, requests: BenchRequest[], p99BudgetMs: number) => {
      statedLoads.push({ name, protocol: row.protocol, ...(await halfRatePass(name, row, requests)), p99BudgetMs });
    };

    // The latency floor: the SELECT 1 routes at half their own maximum, on the same schedule as the hot
    // paths' half-rate passes. A p99 up to it is the machine's (scheduling, the load generator); above it, the app's.
    const floors = new Map<Protocol, Measurement>();
    for (const ceiling of [restCeiling, trpcCeiling]) {
      const { m } = await halfRatePass(
        `SELECT 1 over ${ceiling.protocol} (the latency floor)`,
        ceiling,
        select1[ceiling.protocol],
      );
      floors.set(ceiling.protocol, m);
    }

    // The write anchor, in the same minutes, cluster and cores: pgbench's own transactions at the bench's
    // connection count, the median of three runs (one run moved ±15 % between runs on these VMs). For
    // reference, tpcb-like at the server's pool size: the app's Postgres never sees more connections than that.
    log("anchors: pgbench tpcb-like (three runs), simple-update, tpcb-like at the pool's size");
    // A checkpoint before the anchors and another after them, so pgbench and the app's write cases each
    // start with no dirty buffers: otherwise the first write case after pgbench writes out pgbench's
    // (the REST round cases ran at about 0.6 of the tRPC ones right after it, 2026-11-25).
    await sql`checkpoint`;
    const tpcb = await runPgbenchMedian(pgbench, { script: "tpcb-like", clients: CONNECTIONS, durationS });
    const simpleUpdate = await runPgbench(pgbench, { script: "simple-update", clients: CONNECTIONS, durationS });
    const poolSize = Number(args["pool-size"]);
    const tpcbAtPool = await runPgbench(pgbench, { script: "tpcb-like", clients: poolSize, durationS });
    await sql`checkpoint`;

    // ── rounds: prompts/random opens a round, votes/store votes in it. Passes over the voters
    // (each opens one round, then votes in it) until the case has had its measuring time;
    // then the allowance is run out under races and checked in the database. ──
    const allowanceNotes: string[] = [];
    for (const protocol of ["REST", "tRPC"] as const) {
      const openRequest = (v: Voter) => openRoundRequest(protocol, v);
      const vote = (v: Voter, round: OpenRound) => voteRequest(protocol, v, round);
      // One unmeasured pass first (the warm-up above never opens a round): the first rounds
      // of a process wait for the candidate pool's first load (25,000 rows on the big campus),
      // cold code and each pooled connection's first prepare of these statements. Measured,
      // that pass alone put ~1 % of the requests above 130 ms, which made the p99.
      await resetVoters(sql, voters);
      await load(base, { mode: "each-once", requests: voters.map(openRequest) });
      const warm = await openRounds(sql, voters);
      await load(base, {
        mode: "each-once",
        requests: voters.filter((v) => warm.has(v.id)).map((v) => vote(v, warm.get(v.id)!)),
      });

      await resetVoters(sql, voters);
      const since = new Date();
      const rounds = emptyMeasurement();
      const storeVotes = emptyMeasurement();
      let passes = 0;
      while (
        passes < VOTES_PER_BATCH - 1 &&
        (passes === 0 || Math.min(rounds.seconds, storeVotes.seconds) < durationS)
      ) {
        await load(base, { mode: "each-once", into: rounds, cpu: server.cpu, requests: voters.map(openRequest) });
        const open = await openRounds(sql, voters);
        await load(base, {
          mode: "each-once",
          into: storeVotes,
          cpu: server.cpu,
          requests: voters.filter((v) => open.has(v.id)).map((v) => vote(v, open.get(v.id)!)),
        });
        passes += 1;
      }
      log(`${protocol}: ${passes} pass${passes === 1 ? "" : "es"} of ${voters.length} voters (open a round, vote)`);
      const accepted = storeVotes.statuses.get(200) ?? 0;

      // The allowance under races: fast-forward everyone to one vote left (as if they had voted
      // all along), open a round, send that last vote twice at once; then force a 13th round open
      // behind the server's back and send two votes at once again. One vote each may be stored.
      await sql`update voter_state set votes_in_batch = ${VOTES_PER_BATCH - 1} where user_id = any(${voters.map((v) => v.id)}::uuid[])`;
      await load(base, { mode: "each-once", requests: voters.map(openRequest) });
      let open = await openRounds(sql, voters);
      const twice = (v: Voter) => (open.has(v.id) ? [vote(v, open.get(v.id)!), vote(v, open.get(v.id)!)] : []);
      const last = await load(base, { mode: "each-once", requests: voters.flatMap(twice) });
      await forceOpenRounds(sql, voters);
      open = await openRounds(sql, voters);
      const extra = await load(base, { mode: "each-once", requests: voters.flatMap(twice) });
      const cast = await votesCastSince(sql, voters, since);
      const [state] = await sql<{ full: number; over: number }[]>`
        select count(*) filter (where votes_in_batch = ${VOTES_PER_BATCH} and cooldown_until > now())::int as full,
               count(*) filter (where votes_in_batch > ${VOTES_PER_BATCH})::int as over
        from voter_state where user_id = any(${voters.map((v) => v.id)}::uuid[])`;
      const lastStored = last.statuses.get(200) ?? 0;
      const refused = extra.statuses.get(429) ?? 0;
      const held =
        cast.most <= VOTES_PER_BATCH &&
        cast.over === 0 &&
        cast.total === accepted + lastStored &&
        lastStored === voters.length &&
        refused === extra.requests &&
        state?.full === voters.length &&
        state.over === 0;
      allowanceNotes.push(
        `${protocol} allowance: ${accepted} votes in ${passes} measured pass${passes === 1 ? "" : "es"}, then the last vote sent twice at once by each of ${voters.length} voters: ` +
          `${lastStored} stored; a 13th vote sent twice at once: ${refused}/${extra.requests} refused with 429; ` +
          `${state?.full ?? 0}/${voters.length} voters in cooldown at ${VOTES_PER_BATCH}, most stored by one voter ${cast.most} — ${held ? "held" : "BROKEN"}`,
      );
      rows.push(
        { path: "GET /prompts/random (opens a round)", protocol, m: rounds, ceiling: ceilingOf(protocol) },
        {
          path: "POST /votes/store",
          protocol,
          m: storeVotes,
          ceiling: ceilingOf(protocol),
          note: held ? undefined : "ALLOWANCE BROKEN",
        },
      );
      if (!held) process.exitCode = 1;

      // The writes at half their own maximum rate: passes as above, on the same voters with
      // their allowance given back (the races above spent it), each request sent on a fixed schedule (paced.ts).
      const roundsRow = rows.find((r) => r.m === rounds)!;
      const votesRow = rows.find((r) => r.m === storeVotes)!;
      const half: StatedLoad[] = [
        {
          name: `/prompts/random (opens a round) over ${protocol}`,
          protocol,
          rate: rps(rounds) / 2,
          m: emptyMeasurement(),
          p99BudgetMs: WRITE_P99_MS,
        },
        {
          name: `/votes/store over ${protocol}`,
          protocol,
          rate: rps(storeVotes) / 2,
          m: emptyMeasurement(),
          p99BudgetMs: WRITE_P99_MS,
        },
      ];
      log(
        `${protocol}: opening rounds at ${Math.round(half[0]!.rate)} req/s, voting at ${Math.round(half[1]!.rate)} req/s (half their maximum)`,
      );
      await resetVoters(sql, voters);
      for (
        let pass = 0;
        pass < VOTES_PER_BATCH - 1 && (pass === 0 || Math.min(half[0]!.m.seconds, half[1]!.m.seconds) < durationS);
        pass++
      ) {
        await paced(base, {
          mode: "each-once",
          into: half[0]!.m,
          cpu: server.cpu,
          rate: half[0]!.rate,
          requests: voters.map(openRequest),
        });
        const open = await openRounds(sql, voters);
        await paced(base, {
          mode: "each-once",
          into: half[1]!.m,
          cpu: server.cpu,
          rate: half[1]!.rate,
          requests: voters.filter((v) => open.has(v.id)).map((v) => vote(v, open.get(v.id)!)),
        });
      }
      statedLoads.push(...half);
      halfRateRow(roundsRow, half[0]!);
      halfRateRow(votesRow, half[1]!);
    }

    const anchors = [
      `Anchors: pgbench tpcb-like ${tpcb.tps.toFixed(0)} tps (median of ${tpcb.runs.map((t) => t.toFixed(0)).join(", ")}; latency ${tpcb.latencyMs.toFixed(2)} ms), simple-update ${simpleUpdate.tps.toFixed(0)} tps ` +
        `(scale 10, -M prepared, -j 2, -c ${CONNECTIONS}, ${durationS} s); SELECT 1 ceilings ${rps(restCeiling.m).toFixed(0)} req/s (REST), ${rps(trpcCeiling.m).toFixed(0)} req/s (tRPC).`,
      `For reference: tpcb-like at the server's pool size (-c ${poolSize}) ${tpcbAtPool.tps.toFixed(0)} tps.`,
      // Per transaction, to hold against the write rows' CPU columns (server, Postgres, load generator).
      `CPU per tpcb-like transaction: at -c ${CONNECTIONS} ${transactionCpuNote(tpcb)}; at -c ${poolSize} ${transactionCpuNote(tpcbAtPool)}.`,
      ...[...floors].map(
        ([protocol, m]) =>
          `Latency floor: SELECT 1 over ${protocol} at half its maximum: p50 ${percentile(m, 50).toFixed(2)} ms, p99 ${percentile(m, 99).toFixed(2)} ms (the load generator's longest pause ${(m.generatorStallMs ?? Number.NaN).toFixed(0)} ms)`,
      ),
    ];
    const finish = (): CampusRun => ({
      report: { label, rows },
      budgets: campusBudgets(rows, tpcb, statedLoads, floors),
      allowance: allowanceNotes.join("\n"),
      anchors: [
        ...anchors,
        ...statedLoads.map(
          (s) =>
            `At half rate: ${s.name} at ${Math.round(s.rate)} req/s: p50 ${percentile(s.m, 50).toFixed(2)} ms, p99 ${percentile(s.m, 99).toFixed(2)} ms`,
        ),
        ...aloneNotes(rows),
        ...writeTrends(rows, tpcb, tpcbAtPool, poolSize),
      ].join("\n"),
    });
    if (args.cases === "rounds") return finish();

    // ── received votes: page 1, page 1,000 by offset, page 1,000 by cursor ──
    log(`walking ${DEEP_PAGE - 1} pages by cursor to reach page ${DEEP_PAGE}`);
    let cursor: string | null = null;
    for (let page = 1; page < DEEP_PAGE; page++) {
      const query: string = cursor
        ? `cursor=${encodeURIComponent(cursor)}&limit=${PAGE_SIZE}`
        : `page=1&limit=${PAGE_SIZE}`;
      const res = await fetch(`${base}/api/votes/for-user?${query}`, { headers: deep });
      const body = (await res.json()) as { nextCursor: string | null };
      if (!res.ok || !body.nextCursor) throw new Error(`cursor walk stopped at page ${page}: ${res.status}`);
      cursor = body.nextCursor;
    }
    const forUser = [
      { note: "page 1", input: { page: 1, limit: PAGE_SIZE } },
      { note: `page ${DEEP_PAGE}`, input: { page: DEEP_PAGE, limit: PAGE_SIZE } },
      { note: `page ${DEEP_PAGE} by cursor`, input: { cursor: cursor!, limit: PAGE_SIZE } },
    ];
    for (const protocol of ["REST", "tRPC"] as const) {
      for (const { note, input } of forUser) {
        log(`${protocol}: GET /votes/for-user ${note}`);
        const query = new URLSearchParams(
          Object.entries(input).map(([k, v]): [string, string] => [k, String(v)]),
        ).toString();
        const requestPath = protocol === "REST" ? `/api/votes/for-user?${query}` : trpcGet("inbox.received", input);
        const row: Row = {
          path: `GET /votes/for-user ${note}`,
          protocol,
          m: await run([{ method: "GET", path: requestPath, headers: deep }]),
          ceiling: ceilingOf(protocol),
        };
        rows.push(row);
        if (note !== `page ${DEEP_PAGE}`)
          await atHalfRate(
            `/votes/for-user ${note} over ${protocol}`,
            row,
            [{ method: "GET", path: requestPath, headers: deep }],
            READ_P99_MS,
          );
      }
    }

    // ── the signed-in student's profile ──
    for (const protocol of ["REST", "tRPC"] as const) {
      log(`${protocol}: GET /users/me`);
      const requestPath = protocol === "REST" ? "/api/users/me" : `/api/trpc/users.me?${trpcInput(undefined)}`;
      const requests = voters.map((v): BenchRequest => ({ method: "GET", path: requestPath, headers: v.headers }));
      const row: Row = { path: "GET /users/me", protocol, m: await run(requests), ceiling: ceilingOf(protocol) };
      rows.push(row);
      await atHalfRate(`/users/me over ${protocol}`, row, requests, READ_P99_MS);
    }

    // ── each read's service alone in a plain Fastify route (routes.ts): the bar its app routes are held to,
    // both protocols, is 0.85 of this (the app's own machinery, tRPC's call, schemas and limits, at most 15 %) ──
    const restRow = (path: string) => rows.find((r) => r.path === path && r.protocol === "REST")!;
    const deepCursor = encodeURIComponent(cursor!);
    const alone = [
      { of: restRow("GET /users/me"), path: "/api/bench/alone/users-me", as: voters.map((v) => v.headers) },
      {
        of: restRow("GET /votes/for-user page 1"),
        path: `/api/bench/alone/votes?page=1&limit=${PAGE_SIZE}`,
        as: [deep],
      },
      {
        of: restRow(`GET /votes/for-user page ${DEEP_PAGE} by cursor`),
        path: `/api/bench/alone/votes?cursor=${deepCursor}&limit=${PAGE_SIZE}`,
        as: [deep],
      },
    ];
    for (const { of, path, as } of alone) {
      log(`REST: ${of.path}, its service alone`);
      rows.push({
        path: `${of.path}, its service alone (plain route)`,
        protocol: "REST",
        m: await run(as.map((headers): BenchRequest => ({ method: "GET", path, headers }))),
        ceiling: restCeiling,
        aloneOf: of,
      });
    }

    return finish();
  } finally {
    await sql.end({ timeout: 5 });
    await server.stop();
  }
}

/** Each read run alone against the app's own route, as shares of the REST ceiling. */
const aloneNotes = (rows: Row[]): string[] =>
  rows.flatMap((row) =>
    row.aloneOf
      ? [
          `Alone: ${row.aloneOf.path}'s service in a plain Fastify route ${ratio(row).toFixed(2)} of the REST SELECT 1 ceiling (the app's route ${ratio(row.aloneOf).toFixed(2)}).`,
        ]
      : [],
  );

/** `--cases web` runs no pgbench: no write rows, so no line reads it. */
const NO_PGBENCH: PgbenchResult = { script: "tpcb-like", tps: Number.NaN, latencyMs: Number.NaN };

const transactionCpuNote = (run: PgbenchResult) =>
  run.cpuUs
    ? `${run.cpuUs.postgres.toFixed(0)} µs Postgres (the rest of the machine), ${run.cpuUs.pgbench.toFixed(0)} µs pgbench`
    : "not measured";

async function main() {
  const benchUrl = process.env.DATABASE_URL?.trim() || "postgres://postgres@127.0.0.1:5432/quad_bench";
  const parsed = new URL(benchUrl);
  const bigName = parsed.pathname.replace(/^\//, "") || "quad_bench";
  const specs = [
    { spec: { ...BIG_CAMPUS, database: bigName }, label: "50,000 students, 1,000,000 votes" },
    { spec: { ...SMALL_CAMPUS, database: `${bigName}_500` }, label: "500 students, 30,000 votes" },
  ].filter(({ spec }) => !args.only || (args.only === "big") === (spec.students === BIG_CAMPUS.students));

  ensureServerBuilt(log);
  const started = Date.now();
  const loadBefore = os.loadavg()[0]!;
  const campuses: { campus: Campus; label: string }[] = [];
  for (const { spec, label } of specs) campuses.push({ campus: await prepareCampus(benchUrl, spec, log), label });
  if (args.cases === "observability") {
    // Traces go to a stand-in collector on this machine: the server pays all of tracing, nothing else runs.
    const sink = await startOtlpSink();
    const variants: ObservabilityVariant[] = [
      ...OBSERVABILITY_VARIANTS,
      {
        name: "traces on (OTLP to a local stand-in, every request)",
        env: () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint }),
        budgeted: false,
      },
    ];
    const lines = observabilityLines(
      await benchObservability(campuses[0]!.campus, variants, {
        durationS,
        voters: Number(args.voters),
        poolSize: args["pool-size"],
        log,
      }).finally(() => sink.close()),
    );
    console.log(`\n${lines.join("\n")}`);
    if (lines.some((line) => line.startsWith("MISSED"))) process.exitCode = 1;
    return;
  }
  const runs: CampusRun[] = [];
  const pgbench = args.cases === "web" ? null : await preparePgbench(benchUrl, log);
  for (const { campus, label } of campuses) runs.push(await benchCampus(campus, label, pgbench));

  const budgets = runs.flatMap((r) =>
    r.budgets.map((b) => ({ ...b, name: `${b.name} [${r.report.label.split(" students")[0]} students]` })),
  );
  const growth = runs.length === 2 ? growthTrends(runs[0]!.report, runs[1]!.report) : [];

  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  const [pg] = await (async () => {
    // The campus that ran: with --only small, the big campus's database may not exist.
    const sql = postgres(campuses[0]?.campus.url ?? benchUrl, { max: 1, onnotice: () => {} });
    try {
      return await sql<{ version: string; autovacuum: string; sharedBuffers: string; maxWalSize: string }[]>`
        select current_setting('server_version') as version, current_setting('autovacuum') as autovacuum,
               current_setting('shared_buffers') as "sharedBuffers", current_setting('max_wal_size') as "maxWalSize"`;
    } finally {
      await sql.end({ timeout: 5 });
    }
  })();
  const header = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
      `Node ${process.versions.node}, PostgreSQL ${pg?.version} (shared_buffers ${pg?.sharedBuffers}, max_wal_size ${pg?.maxWalSize}, autovacuum ${pg?.autovacuum}; the bench vacuums users and votes each run, and what the round cases churn before them); autocannon, 50 connections, ${durationS} s per case, one server process, pool of ${args["pool-size"]} connections.`,
    `Load average (1 min) before the run ${loadBefore.toFixed(2)}, after ${os.loadavg()[0]!.toFixed(2)}: above ~1 the machine was busy with other work and the figures are low.`,
    ...campuses.map(
      ({ campus }) =>
        `${campus.spec.database}: ${campus.totalVotes.toLocaleString("en-US")} votes` +
        (campus.seededInMs === null ? " (reused)" : ` (seeded in ${(campus.seededInMs / 1000).toFixed(1)} s)`),
    ),
  ];
  const out = [
    ...header,
    "",
    ...runs.flatMap((r) => [table(r.report), "", r.anchors, "", r.allowance, ""]),
    ...(growth.length ? [...growth, ""] : []),
    "Budgets:",
    budgetLines(budgets),
    "",
    `${budgets.filter((b) => b.met).length} met, ${budgets.filter((b) => !b.met).length} missed; bench took ${Math.round((Date.now() - started) / 1000)} s.`,
  ].join("\n");
  console.log(`\n${out}`);
  const reportDir = path.join(REPO_ROOT, "bench/reports");
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(path.join(reportDir, "latest.md"), `${out}\n`);
  log(`written to bench/reports/latest.md`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
