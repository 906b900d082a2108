import { Round } from "@quad/contracts";
import { jobRuns, smsOutbox } from "@quad/db/schema";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { testPhone } from "../test/auth";
import { campus } from "../test/voters";
import { spendSmsBudget } from "../modules/sms/budget";
import { createMemoryRateLimiter } from "../rate-limit/limiter";
import { limitNameOf } from "./limiter-metrics";
import { registry } from "./registry";
import { startMetricsServer } from "./server";

let t: TestApp;
let metrics: Server;
let metricsUrl: string;
beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_PORT: "0" } });
  metrics = await startMetricsServer(0, "127.0.0.1");
  metricsUrl = `http://127.0.0.1:${(metrics.address() as AddressInfo).port}/metrics`;
});
afterAll(async () => {
  metrics?.close();
  await t?.close();
});

/** One series' value in the scrape, as Prometheus would read it (0 when absent). */
async function value(name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text
    .split("\n")
    .find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `) ? wanted.every((w) => l.includes(w)) : false));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

describe("metrics", () => {
  it("are served on their own port in Prometheus' format, with Node's defaults, and not on the public port", async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    for (const name of ["process_cpu_seconds_total", "nodejs_eventloop_lag_seconds", "nodejs_gc_duration_seconds"]) {
      expect(text).toContain(name);
    }
    expect((await fetch(metricsUrl.replace("/metrics", "/other"))).status).toBe(404);
    const publicPort = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(publicPort.body).not.toContain("process_cpu_seconds_total");
  });

  it("count requests by route and tRPC procedure, never by what the caller put in the path", async () => {
    const before = await value("quad_http_requests_total", { route: "/api/schools", status_class: "2xx" });
    await t.app.inject({ method: "GET", url: "/api/schools" });
    await t.app.inject({ method: "GET", url: "/api/trpc/schools.list" });
    await t.app.inject({ method: "GET", url: "/api/trpc/attacker-chosen-name-123" });
    await t.app.inject({ method: "GET", url: "/api/no-such-route-456" });
    expect(await value("quad_http_requests_total", { route: "/api/schools", status_class: "2xx" })).toBe(before + 1);
    expect(await value("quad_http_requests_total", { route: "trpc:schools.list" })).toBeGreaterThan(0);
    expect(await value("quad_http_requests_total", { route: "trpc:unknown", status_class: "4xx" })).toBeGreaterThan(0);
    expect(await value("quad_http_requests_total", { route: "unmatched" })).toBeGreaterThan(0);
    const text = await registry.metrics();
    expect(text).not.toContain("attacker-chosen-name-123");
    expect(text).not.toContain("no-such-route-456");
    expect(text).toContain('quad_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/schools"');
  });

  it("count each call of a tRPC batch under its procedure, by exact status and class, and methods from a fixed set", async () => {
    const labels = { route: "trpc:schools.list", status: "200", status_class: "2xx" };
    const [schools, live] = [
      await value("quad_http_requests_total", labels),
      await value("quad_http_requests_total", { route: "trpc:health.live" }),
    ];
    const batch = await t.app.inject({ method: "GET", url: "/api/trpc/schools.list,health.live?batch=1&input=%7B%7D" });
    expect(batch.statusCode).toBe(200);
    expect(await value("quad_http_requests_total", labels)).toBe(schools + 1);
    expect(await value("quad_http_requests_total", { route: "trpc:health.live", status: "200" })).toBe(live + 1);
    expect(await registry.metrics()).not.toContain("trpc:batch");
    await t.app.inject({ method: "GET", url: "/api/no-such-route" });
    expect(
      await value("quad_http_requests_total", { route: "unmatched", status: "404", status_class: "4xx" }),
    ).toBeGreaterThan(0);
    await t.app.inject({ method: "MKCOL", url: "/api/schools" });
    expect(await value("quad_http_requests_total", { method: "other" })).toBeGreaterThan(0);
    expect(await registry.metrics()).not.toContain('method="MKCOL"');
  });

  it("count texts sent by kind, and the hourly budget used against its size", async () => {
    const sent = await value("quad_sms_texts_total", { kind: "code", outcome: "sent" });
    const res = await t.app.inject({ method: "POST", url: "/api/auth/send-code", payload: { phone: testPhone() } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await value("quad_sms_texts_total", { kind: "code", outcome: "sent" })).toBe(sent + 1);
    expect(await value("quad_sms_budget_used")).toBeGreaterThanOrEqual(1);
    expect(await value("quad_sms_budget_per_hour")).toBe(2000);
  });

  it("count a sign-in text the hourly budget refused", async () => {
    const refused = await value("quad_sms_texts_total", { kind: "code", outcome: "refused" });
    const limiter = createMemoryRateLimiter();
    const log = { warn: () => {} };
    await spendSmsBudget(limiter, 1, log);
    await expect(spendSmsBudget(limiter, 1, log)).rejects.toThrow();
    expect(await value("quad_sms_texts_total", { kind: "code", outcome: "refused" })).toBe(refused + 1);
    expect(await value("quad_sms_budget_used")).toBe(1);
    expect(await value("quad_sms_budget_per_hour")).toBe(1);
  });

  it("show the open event streams against the process's cap", async () => {
    expect(await value("quad_live_streams_max")).toBe(20_000);
    expect(await value("quad_live_streams_open")).toBe(t.deps.live.size());
  });

  it("label each job's run as scheduled_job, never job (Prometheus' own label, the scrape's)", async () => {
    const finished = new Date(Date.now() - 60_000);
    await t.deps.db
      .insert(jobRuns)
      .values({ name: "notifications", nextRunAt: new Date(), lastFinishedAt: finished })
      .onConflictDoNothing();
    const line = (await registry.getSingleMetricAsString("quad_job_last_finished_timestamp_seconds"))
      .split("\n")
      .find((l) => l.startsWith("quad_job_last_finished_timestamp_seconds{"));
    expect(line).toMatch(/^quad_job_last_finished_timestamp_seconds\{scheduled_job="notifications"\} \d+/);
  });

  it("count rounds opened and votes where they happen", async () => {
    const c = await campus(t);
    for (let i = 0; i < 4; i++) await c.student();
    const [opened, voted] = [await value("quad_rounds_opened_total"), await value("quad_votes_total")];
    const round = Round.parse(
      (await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers })).json(),
    );
    // A reload answers the same round: not another one opened.
    await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers });
    const vote = await t.app.inject({
      method: "POST",
      url: "/api/votes/store",
      headers: c.headers,
      payload: { userId: round.users[0].id, promptId: round.prompt.id },
    });
    expect(vote.statusCode).toBe(200);
    expect(await value("quad_rounds_opened_total")).toBe(opened + 1);
    expect(await value("quad_votes_total")).toBe(voted + 1);
  });

  it("count rate-limit refusals by limit, without the address", async () => {
    const before = await value("quad_rate_limit_refusals_total", { limit: "preview:ip" });
    let refused = 0;
    for (let i = 0; i < 65; i++) {
      const res = await t.app.inject({ method: "GET", url: "/api/prompts/unauthenticated?gender=female" });
      if (res.statusCode === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    expect(await value("quad_rate_limit_refusals_total", { limit: "preview:ip" })).toBe(before + refused);
    expect(limitNameOf("rounds.vote:phone:+12025550100")).toBe("rounds.vote:phone");
    expect(limitNameOf("auth.verifyCode:phone:+12025550100:ip:10.0.0.1")).toBe("auth.verifyCode:phone");
    expect(limitNameOf("schoolEmail.sendCode:day:+12025550100")).toBe("schoolEmail.sendCode:day");
    expect(limitNameOf("sms-budget")).toBe("sms-budget");
  });

  it("read each outbox's depth and oldest waiting age at scrape time", async () => {
    const createdAt = new Date(Date.now() - 90_000);
    await t.deps.db
      .insert(smsOutbox)
      .values({ toPhone: "+15555550190", body: "You got a vote on Quad!", kind: "notification", createdAt });
    expect(await value("quad_outbox_waiting", { channel: "sms" })).toBeGreaterThanOrEqual(1);
    expect(await value("quad_outbox_oldest_waiting_seconds", { channel: "sms" })).toBeGreaterThanOrEqual(89);
    expect(await value("quad_outbox_waiting", { channel: "push" })).toBe(0);
    expect(await value("quad_outbox_oldest_waiting_seconds", { channel: "email" })).toBe(0);
  });
});
