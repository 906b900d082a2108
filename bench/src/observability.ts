import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { Campus } from "./campus";
import { cpuPerRequest, emptyMeasurement, load, rps, type Measurement } from "./load";
import { openRoundRequest, voteRequest } from "./requests";
import { freePort } from "@quad/server/test/processes";
import { REPO_ROOT, startServer, type RunningServer } from "./server";
import { openRounds, pickVoters, resetVoters, type Voter } from "./voters";

/** What watching the server may cost: server CPU per request at most this much above the same server unwatched. */
export const OBSERVABILITY_CPU_BUDGET = 1.05;
/**
 * Slices each side gets, taken in the order off, on, on, off, off, on, … with
 * both servers up the whole time: a drift in the machine's speed (other work,
 * a noisy neighbour) then falls on both sides alike instead of on whichever
 * ran during it. Each side's figure is the median of its slices, so a burst
 * of other work in one slice does not decide the line.
 */
const SLICES = 8;
const sideOf = (slice: number) => (slice % 4 === 0 || slice % 4 === 3 ? "off" : "on");
/** Vote passes (open a round, then vote in it) in a slice, after the voters are reset. */
const VOTE_PASSES = 2;

/** How often the repo's Prometheus scrapes (deploy/observability/prometheus.yml's scrape_interval). */
export function deployedScrapeIntervalS(): number {
  const config = readFileSync(path.join(REPO_ROOT, "deploy/observability/prometheus.yml"), "utf8");
  const interval = /^\s*scrape_interval:\s*(\d+)s\s*$/m.exec(config)?.[1];
  if (!interval) throw new Error("deploy/observability/prometheus.yml names no scrape_interval in seconds");
  return Number(interval);
}

export interface ObservabilityVariant {
  /** "metrics on", say. */
  name: string;
  /** What turns it on, given a free port for whatever it listens on. */
  env: (port: number) => Record<string, string>;
  /** Held to OBSERVABILITY_CPU_BUDGET (metrics); otherwise its cost is only measured and printed (traces). */
  budgeted: boolean;
  /** Seconds between scrapes of its METRICS_PORT, as Prometheus' scrape_interval; not scraped when unset. */
  scrapeEveryS?: number;
}

export interface ObservabilityLine {
  name: string;
  path: string;
  offUs: number;
  onUs: number;
  /** Undefined when the variant is measured, not budgeted. */
  met: boolean | undefined;
}

/** One slice on one server: `/users/me` for `seconds`, then votes from freshly reset voters. */
async function slice(server: RunningServer, voters: Voter[], sql: postgres.Sql, seconds: number) {
  const me = await load(server.baseUrl, {
    requests: voters.map((v) => ({ method: "GET", path: "/api/users/me", headers: v.headers })),
    mode: "duration",
    durationS: seconds,
    cpu: server.cpu,
  });
  // Votes: each voter opens a round, then votes in it; only the votes are measured.
  const votes: Measurement = emptyMeasurement();
  await resetVoters(sql, voters);
  for (let pass = 0; pass < VOTE_PASSES; pass++) {
    await load(server.baseUrl, { mode: "each-once", requests: voters.map((v) => openRoundRequest("REST", v)) });
    const open = await openRounds(sql, voters);
    await load(server.baseUrl, {
      mode: "each-once",
      into: votes,
      cpu: server.cpu,
      requests: voters.filter((v) => open.has(v.id)).map((v) => voteRequest("REST", v, open.get(v.id)!)),
    });
  }
  return { me, votes };
}

/** Starts the server unwatched or watched by `variant`, with a scraper on its metrics port if it has one. */
async function startSide(campus: Campus, jwtSecret: string, poolSize: string, variant?: ObservabilityVariant) {
  const port = await freePort();
  const server = await startServer({
    databaseUrl: campus.url,
    jwtSecret,
    name: `${campus.spec.database}-${variant ? "on" : "off"}`,
    env: { DATABASE_POOL_SIZE: poolSize, ...variant?.env(port) },
  });
  // A scraper, as Prometheus would be, for as long as the server runs.
  const scrape = variant?.scrapeEveryS
    ? setInterval(
        () =>
          void fetch(`http://127.0.0.1:${port}/metrics`)
            .then((r) => r.text())
            .catch(() => {}),
        variant.scrapeEveryS * 1000,
      )
    : undefined;
  return {
    server,
    stop: async () => {
      clearInterval(scrape);
      await server.stop();
    },
  };
}

/**
 * `pnpm bench -- --cases observability`: the same server unwatched and
 * watched (metrics on their port, scraped as the repo's Prometheus config
 * does; or another variant), both running, in alternating slices, on the
 * small campus's voters. Server CPU per request, on and off, for `/users/me`
 * and a vote, against the 5 % budget.
 */
export async function benchObservability(
  campus: Campus,
  variants: ObservabilityVariant[],
  opts: { durationS: number; voters: number; poolSize: string; log: (line: string) => void },
): Promise<ObservabilityLine[]> {
  const jwtSecret = randomBytes(32).toString("hex");
  const sql = postgres(campus.url, { max: 2, onnotice: () => {} });
  const lines: ObservabilityLine[] = [];
  try {
    const voters = await pickVoters(
      sql,
      campus.schoolId,
      Math.min(opts.voters, campus.spec.students),
      jwtSecret,
      campus.deepPhone,
    );
    for (const variant of variants) {
      const sides = {
        off: await startSide(campus, jwtSecret, opts.poolSize),
        on: await startSide(campus, jwtSecret, opts.poolSize, variant),
      };
      const perSlice = {
        off: { me: [] as number[], votes: [] as number[] },
        on: { me: [] as number[], votes: [] as number[] },
      };
      try {
        // Warm both: a slice each, not counted (the first votes a process takes run colder code).
        for (const { server } of Object.values(sides)) await slice(server, voters, sql, 2);
        for (let i = 0; i < 2 * SLICES; i++) {
          const side = sideOf(i);
          const m = await slice(sides[side].server, voters, sql, opts.durationS / 2);
          for (const key of ["me", "votes"] as const) perSlice[side][key].push(cpuPerRequest(m[key], "server"));
          opts.log(
            `${variant.name}, ${side}, slice ${i + 1}/${2 * SLICES}: /users/me ${rps(m.me).toFixed(0)} req/s ${cpuPerRequest(m.me, "server").toFixed(0)} µs, votes ${cpuPerRequest(m.votes, "server").toFixed(0)} µs (load ${os.loadavg()[0]!.toFixed(1)})`,
          );
        }
      } finally {
        await Promise.all(Object.values(sides).map((s) => s.stop()));
      }
      for (const [key, path] of [
        ["me", "GET /users/me"],
        ["votes", "POST /votes/store"],
      ] as const) {
        const offUs = median(perSlice.off[key]);
        const onUs = median(perSlice.on[key]);
        lines.push({
          name: variant.name,
          path,
          offUs,
          onUs,
          met: variant.budgeted ? onUs <= offUs * OBSERVABILITY_CPU_BUDGET : undefined,
        });
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
  return lines;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const observabilityLines = (lines: ObservabilityLine[]): string[] =>
  lines.map((l) => {
    const cost = `${l.name}, ${l.path}: server CPU ${l.onUs.toFixed(0)} µs a request against ${l.offUs.toFixed(0)} µs off (${((l.onUs / l.offUs - 1) * 100).toFixed(1)} %`;
    if (l.met === undefined) return `cost   ${cost})`;
    return `${l.met ? "met   " : "MISSED"} ${cost}; budget ≤ +${((OBSERVABILITY_CPU_BUDGET - 1) * 100).toFixed(0)} %)`;
  });
