import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort, stopProcess } from "../test/processes";
import { send, startServerProcess, type ServerProcess } from "../test/server-process";
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from "../test/throwaway-postgres";

/**
 * Monitoring in the outage it exists for: with Postgres stopped, a scrape of
 * a server on it still answers 200 with every request counter, says the
 * database is unreachable (quad_database_reachable 0) and leaves out the
 * gauges it could not read; a real Prometheus with the repo's config and
 * rules sees it and holds QuadDatabaseUnavailable pending, and promtool
 * shows the rule firing once its `for` has passed.
 */
const OBSERVABILITY = path.resolve(import.meta.dirname, "../../../../deploy/observability");
const PROMTOOL = "/usr/bin/promtool";
const PROMETHEUS = "/usr/bin/prometheus";
const binDir = postgresBinDir();
const ready = binDir && existsSync(PROMETHEUS) && existsSync(PROMTOOL);

/** The series of a scrape named `name`, as "labels value" lines. */
const series = (text: string, name: string) =>
  text.split("\n").filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

describe.skipIf(!ready)(
  ready
    ? "metrics while Postgres is down"
    : "metrics while Postgres is down (skipped: needs initdb/pg_ctl, prometheus)",
  () => {
    let postgres: ThrowawayPostgres;
    let server: ServerProcess;
    let prometheus: ChildProcess | undefined;
    let dir: string;
    let metricsUrl: string;
    let metricsPort: number;

    beforeAll(async () => {
      postgres = await startThrowawayPostgres(binDir!);
      metricsPort = await freePort();
      metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      server = await startServerProcess(process.env, { DATABASE_URL: postgres.url, METRICS_PORT: String(metricsPort) });
      dir = await mkdtemp(path.join(tmpdir(), "quad-prometheus-down-"));
    }, 120_000);

    afterAll(async () => {
      await stopProcess(prometheus);
      await server?.stop();
      await postgres?.destroy();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("answers a scrape with the request counters and the database at 0, and Prometheus holds the alert", async () => {
      for (let i = 0; i < 3; i++) await send(server.base, { path: "/api/health" });
      const before = await (await fetch(metricsUrl)).text();
      expect(series(before, "quad_database_reachable")).toEqual(["quad_database_reachable 1"]);
      expect(series(before, "quad_outbox_waiting")).toHaveLength(3);

      postgres.stop("immediate");
      expect((await send(server.base, { path: "/api/health" })).status).toBe(503);
      const started = performance.now();
      const res = await fetch(metricsUrl);
      const scrapeMs = performance.now() - started;
      const text = await res.text();
      console.log(`scrape with Postgres down: ${res.status} in ${Math.round(scrapeMs)} ms, ${text.length} bytes`);
      expect(res.status).toBe(200);
      expect(scrapeMs).toBeLessThan(2_000);
      expect(series(text, "quad_database_reachable")).toEqual(["quad_database_reachable 0"]);
      // Three here, and the start's wait for /api/health.
      const health = (status: number) =>
        series(
          text,
          `quad_http_requests_total{method="GET",route="/api/health",status="${status}",status_class="${Math.floor(status / 100)}xx"}`,
        ).map((l) => Number(l.split(" ")[1]));
      expect(health(200)[0]).toBeGreaterThanOrEqual(3);
      expect(health(503)).toEqual([1]);
      expect(text).toContain("process_cpu_seconds_total");
      // What could not be read is left out, not kept at its last value.
      expect(series(text, "quad_outbox_waiting")).toEqual([]);
      expect(series(text, "quad_outbox_oldest_waiting_seconds")).toEqual([]);

      // The repo's Prometheus config and rules, scraping and evaluating every second.
      const config = (await readFile(path.join(OBSERVABILITY, "prometheus.yml"), "utf8"))
        .replace("127.0.0.1:9464", `127.0.0.1:${metricsPort}`)
        .replace(/scrape_interval: \d+s/, "scrape_interval: 1s")
        .replace(/evaluation_interval: \d+s/, "evaluation_interval: 1s");
      await writeFile(path.join(dir, "prometheus.yml"), config);
      await writeFile(path.join(dir, "alerts.yml"), await readFile(path.join(OBSERVABILITY, "alerts.yml")));
      const webPort = await freePort();
      prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${path.join(dir, "prometheus.yml")}`,
          `--storage.tsdb.path=${path.join(dir, "data")}`,
          `--web.listen-address=127.0.0.1:${webPort}`,
        ],
        { stdio: "ignore" },
      );
      const api = async <T>(route: string): Promise<T> =>
        ((await (await fetch(`http://127.0.0.1:${webPort}/api/v1/${route}`)).json()) as { data: T }).data;
      await vi.waitFor(
        async () => {
          const alerts = await api<{ alerts: { labels: Record<string, string>; state: string }[] }>("alerts");
          const down = alerts.alerts.find((a) => a.labels.alertname === "QuadDatabaseUnavailable");
          expect(down?.state).toBe("pending");
          expect(down?.labels.instance).toBe(`127.0.0.1:${metricsPort}`);
        },
        { timeout: 30_000, interval: 500 },
      );
      const up = await api<{ result: { value: [number, string] }[] }>(`query?query=${encodeURIComponent("up")}`);
      expect(up.result.map((r) => r.value[1])).toEqual(["1"]);
      const counted = await api<{ result: unknown[] }>(
        `query?query=${encodeURIComponent('quad_http_requests_total{route="/api/health"}')}`,
      );
      expect(counted.result.length).toBe(2);
    }, 90_000);

    it("fires QuadDatabaseUnavailable after 2 minutes at 0, and not before (promtool, the shipped rules)", async () => {
      await writeFile(path.join(dir, "alerts.yml"), await readFile(path.join(OBSERVABILITY, "alerts.yml")));
      const instance = "10.0.0.5:9464";
      await writeFile(
        path.join(dir, "alerts.test.yml"),
        `rule_files: [alerts.yml]
evaluation_interval: 15s
tests:
  - interval: 15s
    input_series:
      - series: 'quad_database_reachable{instance="${instance}",job="quad"}'
        values: '1 0x20'
      - series: 'quad_database_reachable{instance="10.0.0.6:9464",job="quad"}'
        values: '1x20'
    alert_rule_test:
      - eval_time: 1m
        alertname: QuadDatabaseUnavailable
        exp_alerts: []
      - eval_time: 3m
        alertname: QuadDatabaseUnavailable
        exp_alerts:
          - exp_labels: { severity: page, instance: "${instance}" }
            exp_annotations:
              summary: "${instance} cannot reach the database: it does not answer within 0.8 s"
              runbook: "docs/operations.md#quaddatabaseunavailable"
`,
      );
      expect(
        execFileSync(PROMTOOL, ["test", "rules", path.join(dir, "alerts.test.yml")], { encoding: "utf8" }),
      ).toMatch(/SUCCESS/);
    });
  },
);
