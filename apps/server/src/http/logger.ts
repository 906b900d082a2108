import type { FastifyServerOptions } from "fastify";

/**
 * Request logs carry the method and path only: query strings can hold phone
 * numbers and headers hold tokens, and neither belongs in a log.
 */
export function loggerOptions(level: string, stream?: { write(line: string): void }): FastifyServerOptions["logger"] {
  return {
    level,
    ...(stream && { stream }),
    redact: {
      paths: [
        "req.headers.authorization",
        "*.phone",
        "*.email",
        "*.schoolEmail",
        "*.address",
        "*.token",
        "*.refreshToken",
        "*.code",
      ],
      censor: "[redacted]",
    },
    serializers: {
      req: (req: { method: string; url: string; id?: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split("?")[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}
