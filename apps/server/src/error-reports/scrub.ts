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

export function scrubText(text: string): string {
  return TEXT_PATTERNS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
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
