import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from "@opentelemetry/api";
import type { StatementObserver } from "@quad/db";

/** The longest query summary (OpenTelemetry's database conventions truncate it there). */
const SUMMARY_LENGTH = 255;
/** Summaries kept, by statement text: the app sends a few hundred texts; past this the cache starts over. */
const SUMMARIES_KEPT = 2000;

/**
 * Each operation and each table it names, in order: `select`, `insert`,
 * `delete`, `update <table>`, and the table after `from`, `join` or `into`
 * (not a function such as `now()` in `extract(epoch from now())`). `for update`
 * (a row lock) and `do update set` name no table.
 */
const PART =
  /\b(select|insert|delete)\b|(?<!\bfor\s+)\bupdate\s+(?:("?)([a-z_][\w$]*)(?![\w$(])\2)?|\b(?:from|join|into)\s+("?)([a-z_][\w$]*)(?![\w$(])\4/gi;
const NOT_A_TABLE = new Set(["set", "lateral", "only"]);

/**
 * A low-cardinality name for a statement, as the database conventions
 * describe `db.query.summary`: "SELECT users", "UPDATE voter_state SELECT
 * users INSERT votes". Statements that name none (BEGIN, SET) by their first
 * word.
 */
export function querySummary(text: string): string {
  const parts: string[] = [];
  const add = (part: string | undefined) => {
    if (part && !NOT_A_TABLE.has(part.toLowerCase()) && parts.at(-1) !== part) parts.push(part);
  };
  for (const m of text.matchAll(PART)) {
    if (m[1]) add(m[1].toUpperCase());
    else if (m[0].toLowerCase().startsWith("update")) {
      add("UPDATE");
      add(m[3]);
    } else add(m[5]);
  }
  const summary = parts.length > 0 ? parts.join(" ") : (/^\s*([a-z]+)/i.exec(text)?.[1]?.toUpperCase() ?? "SQL");
  return summary.slice(0, SUMMARY_LENGTH);
}

/** Where the statements go, as the spans name it: the database and its server (none for the embedded one). */
export function databaseAttributes(url: string | undefined): Attributes {
  if (!url) return { "db.system.name": "postgresql" };
  const parsed = new URL(url);
  return {
    "db.system.name": "postgresql",
    "db.namespace": decodeURIComponent(parsed.pathname.slice(1)) || "postgres",
    "server.address": parsed.hostname,
    "server.port": Number(parsed.port || 5432),
  };
}

/**
 * A span per statement sent inside a traced request (the procedure's or
 * route's span is its parent), named by OpenTelemetry's database
 * conventions. The span carries the SQL text with its placeholders ($1…),
 * never the values bound to them (phone numbers, codes), and for a failed
 * statement only Postgres' error code, not its message (which can quote a
 * value). Statements outside a request (start-up, jobs) make none.
 */
export function statementSpans(tracer: Tracer, database: Attributes): StatementObserver {
  // A statement's summary, read once per text rather than on every run (the vote's is 3 KB of SQL).
  const summaries = new Map<string, string>();
  const summaryOf = (text: string) => {
    let summary = summaries.get(text);
    if (summary === undefined) {
      if (summaries.size >= SUMMARIES_KEPT) summaries.clear();
      summaries.set(text, (summary = querySummary(text)));
    }
    return summary;
  };
  return ({ text }) => {
    const parent = context.active();
    if (!trace.getSpan(parent)) return undefined;
    const summary = summaryOf(text);
    const span = tracer.startSpan(
      summary,
      { kind: SpanKind.CLIENT, attributes: { ...database, "db.query.summary": summary, "db.query.text": text } },
      parent,
    );
    return (error) => {
      if (error !== undefined) {
        // A SQLSTATE (23505), or the driver's own code (CONNECTION_CLOSED): constants, never a value.
        const { code, name } = error as { code?: unknown; name?: unknown };
        if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) span.setAttribute("db.response.status_code", code);
        span.setAttribute("error.type", typeof code === "string" ? code : typeof name === "string" ? name : "Error");
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    };
  };
}
