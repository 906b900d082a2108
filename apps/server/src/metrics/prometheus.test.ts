import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { classYearsAt } from "@quad/contracts";
import { afterAll, describe, expect, it, vi } from "vitest";
import { png } from "../test/images";
import { freePort, stopProcess } from "../test/processes";
import { startServerProcess, type ServerProcess } from "../test/server-process";

/**
 * The repo's observability files against Debian's `prometheus` package
 * (`apt-get install prometheus`; .ci/run installs it): the rules pass
 * promtool, and a real Prometheus with the repo's scrape config sees a vote.
 */
const OBSERVABILITY = path.resolve(import.meta.dirname, "../../../../deploy/observability");
const PROMTOOL = "/usr/bin/promtool";
const PROMETHEUS = "/usr/bin/prometheus";
const skipWhy = (binary: string) => `(skipped: ${binary} is missing; apt-get install prometheus)`;

describe.skipIf(!existsSync(PROMTOOL))(`the alert rules ${existsSync(PROMTOOL) ? "" : skipWhy(PROMTOOL)}`, () => {
  it("pass promtool's checks, as does the scrape config that loads them", () => {
    const rules = execFileSync(PROMTOOL, ["check", "rules", path.join(OBSERVABILITY, "alerts.yml")], {
      encoding: "utf8",
    });
    expect(rules).toMatch(/SUCCESS: \d+ rules found/);
    execFileSync(PROMTOOL, ["check", "config", path.join(OBSERVABILITY, "prometheus.yml")], { encoding: "utf8" });
  });

  it("page on a full disk at once, warn when DATA_DIR's volume is nearly full, and name a job that stopped", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "quad-promtool-"));
    try {
      await writeFile(path.join(dir, "alerts.yml"), await readFile(path.join(OBSERVABILITY, "alerts.yml")));
      const full = (storage: string) => ({
        summary: `Writes fail for want of space on ${storage}: uploads or writes answer 503`,
        runbook: "docs/operations.md#quadstoragefull",
      });
      await writeFile(
        path.join(dir, "test.yml"),
        JSON.stringify({
          rule_files: ["alerts.yml"],
          evaluation_interval: "15s",
          tests: [
            {
              interval: "15s",
              input_series: [
                { series: 'quad_storage_full{instance="a:9464",storage="data_dir"}', values: "0 1 1 0" },
                { series: 'quad_storage_full{instance="b:9464",storage="data_dir"}', values: "0 1 1 0" },
                { series: 'quad_storage_full{instance="a:9464",storage="database"}', values: "0 0 0 0" },
                // As Prometheus stores it: its own job label beside the app's scheduled_job.
                {
                  series:
                    'quad_job_last_finished_timestamp_seconds{job="quad",instance="a:9464",scheduled_job="notifications"}',
                  values: "0x100",
                },
                { series: 'quad_data_dir_free_bytes{instance="a:9464"}', values: "4x60" },
                { series: 'quad_data_dir_size_bytes{instance="a:9464"}', values: "100x60" },
              ],
              alert_rule_test: [
                { eval_time: "0s", alertname: "QuadStorageFull", exp_alerts: [] },
                {
                  eval_time: "15s",
                  alertname: "QuadStorageFull",
                  exp_alerts: [
                    { exp_labels: { severity: "page", storage: "data_dir" }, exp_annotations: full("data_dir") },
                  ],
                },
                { eval_time: "45s", alertname: "QuadStorageFull", exp_alerts: [] },
                { eval_time: "5m", alertname: "QuadDataDirFilling", exp_alerts: [] },
                {
                  eval_time: "22m",
                  alertname: "QuadJobNotRunning",
                  exp_alerts: [
                    {
                      exp_labels: { severity: "page", scheduled_job: "notifications" },
                      exp_annotations: {
                        summary: "Job notifications has not finished a run for 20 minutes",
                        runbook: "docs/operations.md#quadjobnotrunning",
                      },
                    },
                  ],
                },
                {
                  eval_time: "11m",
                  alertname: "QuadDataDirFilling",
                  exp_alerts: [
                    {
                      exp_labels: { severity: "ticket", instance: "a:9464" },
                      exp_annotations: {
                        summary: "a:9464: less than 5% free under DATA_DIR (photos)",
                        runbook: "docs/operations.md#quadstoragefull",
                      },
                    },
                  ],
                },
              ],
            },
          ],
        }),
      );
      expect(execFileSync(PROMTOOL, ["test", "rules", path.join(dir, "test.yml")], { encoding: "utf8" })).toMatch(
        /SUCCESS/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!existsSync(PROMETHEUS))(
  `a real Prometheus ${existsSync(PROMETHEUS) ? "" : skipWhy(PROMETHEUS)}`,
  () => {
    let server: ServerProcess | undefined;
    let prometheus: ChildProcess | undefined;
    let dir: string | undefined;
    afterAll(async () => {
      await stopProcess(prometheus);
      await server?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("scrapes a running server with the repo's config and sees a vote in the votes counter", async () => {
      const metricsPort = await freePort();
      server = await startServerProcess(process.env, { METRICS_PORT: String(metricsPort), SEED_DEMO: "true" });
      const api = async <T>(
        route: string,
        init: { body?: unknown; token?: string; method?: string } = {},
      ): Promise<T> => {
        const form = init.body instanceof FormData;
        const res = await fetch(`${server!.base}/api${route}`, {
          method: init.method ?? (init.body === undefined ? "GET" : "POST"),
          headers: {
            ...(init.body === undefined || form ? {} : { "content-type": "application/json" }),
            ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          },
          body: init.body === undefined ? undefined : form ? (init.body as FormData) : JSON.stringify(init.body),
        });
        expect(res.status, `${route}: ${await res.clone().text()}`).toBe(200);
        return (await res.json()) as T;
      };
      const codeIn = (messages: { body: string }[]) => /\b(\d{6})\b/.exec(messages[0]?.body ?? "")![1];
      // A student signs up as the web app does (codes from the development outboxes), proves the school
      // e-mail, and votes on a round of the demo students.
      const phone = "+12027439001";
      const { codeRequestId } = await api<{ codeRequestId: string }>("/auth/send-code", { body: { phone } });
      const texts = await api<{ messages: { body: string }[] }>(`/dev/sms-outbox?phone=${encodeURIComponent(phone)}`);
      const { token } = await api<{ token: string }>("/auth/verify-code", {
        body: { phone, code: codeIn(texts.messages), codeRequestId, consents: { sms: true, terms: true } },
      });
      const [school] = await api<{ id: number; emailDomains: string[] }[]>("/schools");
      const profile = new FormData();
      for (const [key, value] of Object.entries({
        firstName: "Metric",
        university: String(school!.id),
        graduationYear: String(classYearsAt(new Date())[0]),
        gender: "male",
        preference: "female",
        instagramHandle: "@metric.test",
      }))
        profile.set(key, value);
      profile.set("profileImage", new Blob([new Uint8Array(await png())], { type: "image/png" }), "me.png");
      await api("/users/update", { method: "PATCH", body: profile, token });
      const email = `metric.test@${school!.emailDomains[0]}`;
      await api("/users/school-email/send-code", { body: { email }, token });
      const mail = await api<{ messages: { body: string }[] }>(`/dev/email-outbox?to=${encodeURIComponent(email)}`);
      await api("/users/school-email/verify", { body: { email, code: codeIn(mail.messages) }, token });
      const round = await api<{ prompt: { id: number }; users: { id: string }[] }>("/prompts/random", { token });
      await api("/votes/store", { body: { userId: round.users[0]!.id, promptId: round.prompt.id }, token });

      // The repo's config, pointed at this server and scraping every second.
      dir = await mkdtemp(path.join(tmpdir(), "quad-prometheus-"));
      const config = (await readFile(path.join(OBSERVABILITY, "prometheus.yml"), "utf8"))
        .replace("127.0.0.1:9464", `127.0.0.1:${metricsPort}`)
        .replace(/scrape_interval: \d+s/, "scrape_interval: 1s");
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
      const query = async (promql: string) => {
        const res = await fetch(`http://127.0.0.1:${webPort}/api/v1/query?query=${encodeURIComponent(promql)}`);
        const body = (await res.json()) as { data: { result: { value: [number, string] }[] } };
        return body.data.result.map((r) => Number(r.value[1]));
      };
      await vi.waitFor(
        async () => {
          expect(await query('up{job="quad"}')).toEqual([1]);
          expect(await query("quad_votes_total")).toEqual([1]);
        },
        { timeout: 60_000, interval: 500 },
      );
      expect(await query("quad_sign_ins_total")).toEqual([1]);
      expect((await query("quad_rounds_opened_total"))[0]).toBeGreaterThanOrEqual(1);
      expect((await query("process_cpu_seconds_total")).length).toBe(1);
      // The rules loaded: Prometheus evaluates them against this server.
      const rules = (await (await fetch(`http://127.0.0.1:${webPort}/api/v1/rules`)).json()) as {
        data: { groups: { rules: unknown[] }[] };
      };
      expect(rules.data.groups[0]?.rules.length).toBeGreaterThan(5);
    }, 240_000);
  },
);
