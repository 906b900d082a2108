import { randomBytes } from "node:crypto";
import postgres from "postgres";
import type { Campus } from "./campus";
import { cpuPerRequest, emptyMeasurement, load, rps, type Measurement } from "./load";
import { openRoundRequest, voteRequest } from "./requests";
import { freePort } from "@quad/server/test/processes";
import { startServer, type RunningServer } from "./server";
import { openRounds, pickVoters, resetVoters, type Voter } from "./voters";

/** What watching the server may cost: server CPU per request at most this much above the same server unwatched. */
export const OBSERVABILITY_CPU_BUDGET = 1.05;
/** Alternations of off and on, so drift in the machine's speed falls on both alike. */
const ROUNDS = 3;

export interface ObservabilityVariant {
  /** "metrics on", say. */
  name: string;
  /** What turns it on, given a free port for whatever it listens on. */
  env: (port: number) => Record<string, string>;
  /** Held to OBSERVABILITY_CPU_BUDGET (metrics); otherwise its cost is only measured and printed (traces). */
  budgeted: boolean;
}

export interface ObservabilityLine {
  name: string;
  path: string;
  offUs: number;
  onUs: number;
  /** Undefined when the variant is measured, not budgeted. */
  met: boolean | undefined;
}

/** Server CPU per request on `/users/me` and on a vote, for one running server. */
async function measure(server: RunningServer, voters: Voter[], sql: postgres.Sql, durationS: number) {
  const me = await load(server.baseUrl, {
    requests: voters.map((v) => ({ method: "GET", path: "/api/users/me", headers: v.headers })),
    mode: "duration",
    durationS,
    cpu: server.cpu,
  });
  // Votes: each voter opens a round, then votes in it; only the votes are measured.
  const votes: Measurement = emptyMeasurement();
  await resetVoters(sql, voters);
  for (let pass = 0; pass < 4; pass++) {
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

/**
 * `pnpm bench -- --cases observability`: the same server unwatched and
 * watched (metrics on their port, scraped every second as Prometheus would;
 * or another variant), alternated, on the small campus's voters. Server CPU
 * per request, on and off, for `/users/me` and a vote, against the 5 % budget.
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
      const totals = {
        off: { me: emptyMeasurement(), votes: emptyMeasurement() },
        on: { me: emptyMeasurement(), votes: emptyMeasurement() },
      };
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of ["off", "on"] as const) {
          const port = await freePort();
          const server = await startServer({
            databaseUrl: campus.url,
            jwtSecret,
            name: `${campus.spec.database}-${side}`,
            env: { DATABASE_POOL_SIZE: opts.poolSize, ...(side === "on" ? variant.env(port) : {}) },
          });
          // A scraper, as Prometheus would be: every second, for the whole run.
          const scrape =
            side === "on" && variant.env(port).METRICS_PORT
              ? setInterval(
                  () =>
                    void fetch(`http://127.0.0.1:${port}/metrics`)
                      .then((r) => r.text())
                      .catch(() => {}),
                  1000,
                )
              : undefined;
          try {
            await load(server.baseUrl, {
              requests: voters.slice(0, 50).map((v) => ({ method: "GET", path: "/api/users/me", headers: v.headers })),
              mode: "duration",
              durationS: 2,
            });
            const m = await measure(server, voters, sql, opts.durationS);
            for (const key of ["me", "votes"] as const) merge(totals[side][key], m[key]);
            opts.log(
              `${variant.name}, ${side}, round ${round + 1}: /users/me ${rps(m.me).toFixed(0)} req/s ${cpuPerRequest(m.me, "server").toFixed(0)} µs, votes ${cpuPerRequest(m.votes, "server").toFixed(0)} µs`,
            );
          } finally {
            if (scrape) clearInterval(scrape);
            await server.stop();
          }
        }
      }
      for (const [key, path] of [
        ["me", "GET /users/me"],
        ["votes", "POST /votes/store"],
      ] as const) {
        const offUs = cpuPerRequest(totals.off[key], "server");
        const onUs = cpuPerRequest(totals.on[key], "server");
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

/** Adds one run's counts into a total (requests, time and CPU; latencies are not used here). */
function merge(into: Measurement, m: Measurement): void {
  into.requests += m.requests;
  into.seconds += m.seconds;
  into.cpu.server += m.cpu.server;
  into.cpu.postgres += m.cpu.postgres;
  into.cpu.generator += m.cpu.generator;
}

export const observabilityLines = (lines: ObservabilityLine[]): string[] =>
  lines.map((l) => {
    const cost = `${l.name}, ${l.path}: server CPU ${l.onUs.toFixed(0)} µs a request against ${l.offUs.toFixed(0)} µs off (${((l.onUs / l.offUs - 1) * 100).toFixed(1)} %`;
    if (l.met === undefined) return `cost   ${cost})`;
    return `${l.met ? "met   " : "MISSED"} ${cost}; budget ≤ +${((OBSERVABILITY_CPU_BUDGET - 1) * 100).toFixed(0)} %)`;
  });
