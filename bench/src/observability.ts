import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { Campus } from "./campus";
import { cpuPerRequest, emptyMeasurement, load, type Measurement } from "./load";
import { paced } from "./paced";
import { openRoundRequest, voteRequest } from "./requests";
import { freePort } from "@quad/server/test/processes";
import { REPO_ROOT, startServer, type RunningServer } from "./server";
import { openRounds, pickVoters, resetVoters, type Voter } from "./voters";

/** What watching the server may cost: server CPU per request at most this much above the same server unwatched. */
export const OBSERVABILITY_CPU_BUDGET = 1.05;
/**
 * Each variant runs on PAIRS fresh pairs of processes, unwatched and watched
 * (started in turns, which first alternating): two processes of the same
 * build differ by several per cent for the whole of their lives (where their
 * heaps and JIT'd code landed), so one pair decides nothing.
 */
const PAIRS = 5;
/**
 * Windows per pair, each loading both servers at once with the same paced
 * requests: a drift in the machine's speed (other work, a noisy neighbour)
 * falls on both alike, and below saturation neither takes CPU from the other
 * or gains by batching more requests a wake-up than its twin. Closed-loop
 * load at saturation put the same server twice 10–20 % apart.
 */
const WINDOWS = 3;
/** `/users/me` a second to each server: about a fifth of a core each here, a third of the machine with Postgres. */
const ME_RATE = 1000;
/** Votes a second to each server. */
const VOTE_RATE = 200;
/** Rounds each voter opens and votes in a window: the small campus gives each server 250 voters. */
const VOTE_PASSES = 3;

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
  /** Median server CPU per request (µs) over every window, unwatched and watched. */
  offUs: number;
  onUs: number;
  /** Median over every window of watched / unwatched CPU per request, both measured in that window. */
  ratio: number;
  /** That median for each pair of processes alone: how far apart pairs put it. */
  pairRatios: number[];
  /** Undefined when the variant is measured, not budgeted. */
  met: boolean | undefined;
}

type Side = "off" | "on";
const SIDES: Side[] = ["off", "on"];
type PerSide<T> = Record<Side, T>;

/**
 * One window: `/users/me` to both servers at once for `seconds`, then votes
 * to both at once, each server taking its own half of the voters (the halves
 * swap every window), freshly reset, each voter opening a round and voting in it.
 */
async function window(
  servers: PerSide<RunningServer>,
  halves: PerSide<Voter[]>,
  sql: postgres.Sql,
  seconds: number,
): Promise<PerSide<{ me: Measurement; votes: Measurement }>> {
  const both = <T>(each: (side: Side) => Promise<T>) =>
    Promise.all(SIDES.map(each)).then(([off, on]) => ({ off: off!, on: on! }));
  const voters = [...halves.off, ...halves.on];
  const me = await both((side) =>
    paced(servers[side].baseUrl, {
      requests: voters.map((v) => ({ method: "GET", path: "/api/users/me", headers: v.headers })),
      mode: "duration",
      durationS: seconds,
      rate: ME_RATE,
      cpu: servers[side].cpu,
    }),
  );
  await resetVoters(sql, voters);
  const votes = { off: emptyMeasurement(), on: emptyMeasurement() };
  for (let pass = 0; pass < VOTE_PASSES; pass++) {
    // Opening the rounds is not measured; only the votes are.
    await both((side) =>
      load(servers[side].baseUrl, {
        mode: "each-once",
        requests: halves[side].map((v) => openRoundRequest("REST", v)),
      }),
    );
    const open = await openRounds(sql, voters);
    await both((side) =>
      paced(servers[side].baseUrl, {
        mode: "each-once",
        rate: VOTE_RATE,
        cpu: servers[side].cpu,
        into: votes[side],
        requests: halves[side].filter((v) => open.has(v.id)).map((v) => voteRequest("REST", v, open.get(v.id)!)),
      }),
    );
  }
  return { off: { me: me.off, votes: votes.off }, on: { me: me.on, votes: votes.on } };
}

/** Starts the server unwatched or watched by `variant`, with a scraper on its metrics port if it has one. */
async function startSide(
  campus: Campus,
  jwtSecret: string,
  poolSize: string,
  side: Side,
  variant: ObservabilityVariant,
) {
  const port = await freePort();
  const server = await startServer({
    databaseUrl: campus.url,
    jwtSecret,
    name: `${campus.spec.database}-${side}`,
    env: { DATABASE_POOL_SIZE: poolSize, ...(side === "on" ? variant.env(port) : {}) },
  });
  // A scraper, as Prometheus would be, for as long as the server runs.
  const scrape =
    side === "on" && variant.scrapeEveryS
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
 * does; or another variant), on PAIRS pairs of processes, each pair loaded
 * at once in WINDOWS windows with the same paced requests, on the small
 * campus's voters. Server CPU per request, watched against unwatched, for
 * `/users/me` and a vote, against the 5 % budget.
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
    const half = Math.floor(voters.length / 2);
    const halvesFor = (w: number): PerSide<Voter[]> =>
      w % 2
        ? { off: voters.slice(half), on: voters.slice(0, half) }
        : { off: voters.slice(0, half), on: voters.slice(half) };
    for (const variant of variants) {
      const ratios = { me: [] as number[][], votes: [] as number[][] };
      const us = {
        off: { me: [] as number[], votes: [] as number[] },
        on: { me: [] as number[], votes: [] as number[] },
      };
      for (let pair = 0; pair < PAIRS; pair++) {
        const start = (side: Side) => startSide(campus, jwtSecret, opts.poolSize, side, variant);
        // Which starts first alternates from pair to pair.
        const [first, second] = pair % 2 ? (["on", "off"] as const) : (["off", "on"] as const);
        const sides = { [first]: await start(first), [second]: await start(second) } as PerSide<
          Awaited<ReturnType<typeof startSide>>
        >;
        const servers = { off: sides.off.server, on: sides.on.server };
        ratios.me.push([]);
        ratios.votes.push([]);
        try {
          // Not counted: a process's first ten seconds or so of requests run colder code.
          await window(servers, halvesFor(1), sql, opts.durationS);
          for (let w = 0; w < WINDOWS; w++) {
            const m = await window(servers, halvesFor(w), sql, opts.durationS / 2);
            const shown: string[] = [];
            for (const key of ["me", "votes"] as const) {
              const off = cpuPerRequest(m.off[key], "server");
              const on = cpuPerRequest(m.on[key], "server");
              us.off[key].push(off);
              us.on[key].push(on);
              ratios[key][pair]!.push(on / off);
              shown.push(`${key === "me" ? "/users/me" : "votes"} ${off.toFixed(0)} → ${on.toFixed(0)} µs`);
            }
            opts.log(
              `${variant.name}, pair ${pair + 1}/${PAIRS}, window ${w + 1}/${WINDOWS}: ${shown.join(", ")} ` +
                `(${m.on.votes.requests} votes a side; load ${os.loadavg()[0]!.toFixed(1)})`,
            );
          }
        } finally {
          await Promise.all(Object.values(sides).map((s) => s.stop()));
        }
      }
      for (const [key, path] of [
        ["me", "GET /users/me"],
        ["votes", "POST /votes/store"],
      ] as const) {
        const ratio = median(ratios[key].flat());
        lines.push({
          name: variant.name,
          path,
          offUs: median(us.off[key]),
          onUs: median(us.on[key]),
          ratio,
          pairRatios: ratios[key].map(median),
          met: variant.budgeted ? ratio <= OBSERVABILITY_CPU_BUDGET : undefined,
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

const percent = (ratio: number) => `${ratio >= 1 ? "+" : ""}${((ratio - 1) * 100).toFixed(1)} %`;

export const observabilityLines = (lines: ObservabilityLine[]): string[] =>
  lines.map((l) => {
    const cost =
      `${l.name}, ${l.path}: server CPU ${l.onUs.toFixed(0)} µs a request against ${l.offUs.toFixed(0)} µs off, ` +
      `${percent(l.ratio)} (pairs ${l.pairRatios.map(percent).join(", ")}`;
    if (l.met === undefined) return `cost   ${cost})`;
    return `${l.met ? "met   " : "MISSED"} ${cost}; budget ≤ +${((OBSERVABILITY_CPU_BUDGET - 1) * 100).toFixed(0)} %)`;
  });
