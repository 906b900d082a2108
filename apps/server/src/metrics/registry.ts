import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's metrics, in Prometheus' format, served on their own port
 * (metrics/server.ts), never on the public one. Node's default metrics
 * (process_*, nodejs_*: event-loop lag, GC, heap) and the app's, all named
 * quad_*. Labels take only values from a fixed set (routes, procedures,
 * limits, status classes), so no request can grow the series.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: "quad_http_requests_total",
  help: "HTTP requests answered, by route (tRPC: by procedure, each call of a batch), status and status class",
  labelNames: ["method", "route", "status", "status_class"] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: "quad_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by route (tRPC: by procedure) and status class",
  labelNames: ["method", "route", "status_class"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: "quad_rate_limit_refusals_total",
  help: "Requests refused by a rate limit, by limit",
  labelNames: ["limit"] as const,
  registers: [registry],
});

export const limiterFallback = new Gauge({
  name: "quad_rate_limiter_fallback",
  help: "1 while Redis is unreachable and rate limits are counted in this process only",
  registers: [registry],
});

/** What students do, counted where it happens (after the database said yes). */
export const product = {
  signIns: new Counter({ name: "quad_sign_ins_total", help: "Sessions started", registers: [registry] }),
  roundsOpened: new Counter({ name: "quad_rounds_opened_total", help: "Rounds opened", registers: [registry] }),
  votes: new Counter({ name: "quad_votes_total", help: "Votes stored", registers: [registry] }),
  unlocks: new Counter({ name: "quad_unlocks_total", help: "Voters unlocked", registers: [registry] }),
  paymentsFulfilled: new Counter({
    name: "quad_payments_fulfilled_total",
    help: "Payments fulfilled (credits or a boost granted)",
    registers: [registry],
  }),
};

/** Texts handed to the SMS provider, by kind (sign-in code, notice, ...) and outcome. */
export const smsTexts = new Counter({
  name: "quad_sms_texts_total",
  help: "Texts by kind and outcome: sent (the provider took it), failed (it refused or could not be reached), refused (the hourly budget was spent)",
  labelNames: ["kind", "outcome"] as const,
  registers: [registry],
});

/** The hourly SMS budget as this process last spent from it (shared through Redis). */
export const smsBudget = {
  used: new Gauge({
    name: "quad_sms_budget_used",
    help: "Texts counted in the hourly SMS budget's window at this process's last sign-in text (all processes', with Redis)",
    registers: [registry],
  }),
  perHour: new Gauge({
    name: "quad_sms_budget_per_hour",
    help: "The hourly SMS budget (SMS_HOURLY_BUDGET)",
    registers: [registry],
  }),
};
