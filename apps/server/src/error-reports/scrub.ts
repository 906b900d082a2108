import type { Event } from "@sentry/core";

/**
 * What an error report may carry out of the server: the error's type, its
 * stack and a message with everything that could name or reach a student
 * replaced. Phones, e-mail addresses, tokens, codes, ids and quoted values
 * (where Postgres echoes input) go; so does any field whose name says it
 * holds one. Nothing else about the request is sent.
 */
const REDACTED = "[redacted]";

/** Replacements for free text, in order: the specific shapes before the catch-alls. */
const TEXT_PATTERNS: readonly [RegExp, string][] = [
  // JSON Web Tokens (session tokens) and anything after "Bearer".
  [/\beyJ[\w-]*\.[\w-]*\.[\w-]*/g, "[token]"],
  [/\bbearer\s+[\w.~+/=-]+/gi, "Bearer [token]"],
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, "[email]"],
  // Postgres' "Key (phone)=(+14155552671)" and "(a, b)=(x, y)" details.
  [/\)=\([^)]*\)/g, ")=([redacted])"],
  // Quoted input echoed back: invalid input syntax for type uuid: "Alice".
  [/"[^"]*"/g, `"${REDACTED}"`],
  [/'[^']*'/g, `'${REDACTED}'`],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "[id]"],
  // Phone numbers in any spelling: ten or more digits with separators.
  [/\+?\(?\d(?:[\s().-]*\d){9,}/g, "[phone]"],
  // Sign-in and school e-mail codes, and any other short number that could be one.
  [/\b\d{4,8}\b/g, "[number]"],
  // Opaque secrets: refresh tokens, API keys, push endpoints' keys.
  [/\b[\w-]{24,}\b/g, "[secret]"],
];

/** A field with one of these in its name holds personal data or a secret, whatever its value looks like. */
const SENSITIVE_KEY = /phone|e-?mail|token|secret|password|passwd|auth|cookie|code|name|address|body|query|dsn/i;

/**
 * Drizzle's message for a failed query ends in "params: " and every value
 * bound to it (names, Instagram handles, report text, phones): all of it
 * goes, the query's text with its placeholders stays.
 */
const QUERY_PARAMS = "\nparams: ";

/** `text` up to and with a failed query's "params: ", the values replaced. */
export function withoutQueryParams(text: string): string {
  const at = text.indexOf(QUERY_PARAMS);
  return at === -1 ? text : `${text.slice(0, at + QUERY_PARAMS.length)}${REDACTED}`;
}

export function scrubText(text: string): string {
  return TEXT_PATTERNS.reduce(
    (out, [pattern, replacement]) => out.replace(pattern, replacement),
    withoutQueryParams(text),
  );
}

/** Fields of an error that hold the values bound to a query (Drizzle's, and postgres.js' in debug mode). */
const PARAM_FIELDS = ["params", "parameters"];

/**
 * An error as the log writes it (pino's serialized form, each cause nested):
 * without the values bound to a failed query, in its message, its stack (which
 * repeats the message) and its fields, and with Postgres' echo of a row's key
 * (`Key (phone)=(+1…)`) scrubbed. The rest stays as it was, for whoever reads
 * the log.
 */
export function scrubLoggedError<E extends Record<string, unknown>>(error: E, depth = 0): E {
  const out: Record<string, unknown> = { ...error };
  for (const field of PARAM_FIELDS) if (field in out) out[field] = REDACTED;
  if (typeof out.message === "string") {
    const message = withoutQueryParams(out.message);
    if (typeof out.stack === "string") out.stack = out.stack.replace(out.message, message);
    out.message = message;
  }
  if (typeof out.detail === "string") out.detail = scrubText(out.detail);
  if (depth < 8 && out.cause && typeof out.cause === "object")
    out.cause = scrubLoggedError(out.cause as Record<string, unknown>, depth + 1);
  return out as E;
}

/** Every string scrubbed, every sensitive field replaced, to any depth. */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubText(value);
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SENSITIVE_KEY.test(key) ? REDACTED : scrubValue(item, depth + 1)]),
  );
}

/** Contexts the SDK fills about the machine, not about anyone: kept as they are. */
const MACHINE_CONTEXTS = new Set(["runtime", "os", "device", "app", "culture", "trace", "cloud_resource"]);

/** The event as it may leave the server (Sentry's beforeSend). */
export function scrubEvent<E extends Event>(event: E): E {
  const contexts = Object.fromEntries(
    Object.entries(event.contexts ?? {}).map(([name, context]) => [
      name,
      MACHINE_CONTEXTS.has(name) ? context : scrubValue(context),
    ]),
  );
  return {
    ...event,
    // Who asked, and what they sent, never leave: no user, request, breadcrumbs or local variables.
    user: undefined,
    request: undefined,
    breadcrumbs: undefined,
    message: event.message === undefined ? undefined : scrubText(event.message),
    logentry: event.logentry && { ...event.logentry, message: scrubText(event.logentry.message ?? ""), params: [] },
    exception: event.exception && {
      values: event.exception.values?.map((exception) => ({
        ...exception,
        value: exception.value === undefined ? undefined : scrubText(exception.value),
        stacktrace: exception.stacktrace && {
          ...exception.stacktrace,
          frames: exception.stacktrace.frames?.map(({ vars: _vars, ...frame }) => frame),
        },
      })),
    },
    contexts,
    extra: event.extra && (scrubValue(event.extra) as E["extra"]),
    tags: event.tags && (scrubValue(event.tags) as E["tags"]),
  };
}
