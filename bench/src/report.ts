import { cpuPerRequest, non2xx, percentile, rps, type Measurement } from "./load";

export type Protocol = "REST" | "tRPC";

export interface Row {
  /** e.g. "GET /prompts/random". */
  path: string;
  protocol: Protocol;
  m: Measurement;
  /** The ceiling this row is compared with: REST rows with the plain route, tRPC rows with the tRPC procedure. */
  ceiling?: Row;
  note?: string;
  /** A pass at a stated load (req/s, half of the row above's maximum), for its latency. */
  halfRate?: number;
  /** The app's row whose service this row runs alone in a plain route (no tRPC call, schemas or limits). */
  aloneOf?: Row;
}

export interface CampusReport {
  label: string;
  rows: Row[];
}

export interface Budget {
  name: string;
  met: boolean;
  detail: string;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
export const ratio = (row: Row) => (row.ceiling ? rps(row.m) / rps(row.ceiling.m) : Number.NaN);
export const p50 = (row: Row) => percentile(row.m, 50);
export const p99 = (row: Row) => percentile(row.m, 99);

/** A Markdown table (it reads well in a terminal too). */
export function table(report: CampusReport): string {
  const header = [
    "path",
    "via",
    "req/s",
    "p50 ms",
    "p99 ms",
    "× ceiling",
    "server CPU µs",
    "PG CPU µs",
    "load gen. CPU µs",
    "requests",
    "non-2xx",
  ];
  const lines = report.rows.map((row) => [
    row.path + (row.note ? ` (${row.note})` : ""),
    row.protocol,
    fmt(rps(row.m), 0),
    fmt(p50(row), 2),
    fmt(p99(row), 2),
    row.ceiling ? fmt(ratio(row), 2) : row.halfRate ? "½ rate" : "ceiling",
    fmt(cpuPerRequest(row.m, "server"), 0),
    fmt(cpuPerRequest(row.m, "postgres"), 0),
    fmt(cpuPerRequest(row.m, "generator"), 0),
    String(row.m.requests),
    String(non2xx(row.m) + row.m.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const render = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 || i === 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  return [
    `**${report.label}**`,
    "",
    render(header),
    `|${widths.map((w, i) => (i < 2 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`,
    ...lines.map(render),
  ].join("\n");
}

export function budgetLines(budgets: Budget[]): string {
  return budgets.map((b) => `- ${b.met ? "met   " : "MISSED"} ${b.name}: ${b.detail}`).join("\n");
}
