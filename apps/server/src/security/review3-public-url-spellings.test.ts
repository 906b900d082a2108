import { describe, expect, it } from "vitest";
import { parseConfig } from "../env";
import { PRODUCTION_PROVIDERS } from "../test/app";

/**
 * More spellings of the local machine in PUBLIC_URL, refused in production
 * unless dev providers are allowed. URL parsing already turns most into
 * 127.0.0.1, ::1 or localhost (short, octal, hexadecimal and decimal IPv4,
 * upper case, full-width letters, a percent-encoded dot, a trailing dot);
 * "localhost.." (two trailing dots) was taken as a real host.
 */
const secret = "aXLP6TM1c3Rrs9zguWYrcJ0otpwKcn0W5D15PLlv6s7QvJn21g6iTs5Kgj-OsRic";
const production = { NODE_ENV: "production", JWT_SECRET: secret, ...PRODUCTION_PROVIDERS };
const LOOPBACK = [
  "http://127.1",
  "http://0x7f.1",
  "http://0177.0.0.1",
  "http://2130706433",
  "http://127.0.0.1.",
  "http://[::1]",
  "http://[0:0:0:0:0:0:0:1]",
  "http://[::ffff:127.0.0.1]",
  "http://[::ffff:0.0.0.0]",
  "http://[0::]",
  "http://0",
  "http://0x0",
  "http://0.0.0.0.",
  "http://LOCALHOST",
  "http://localhost.",
  "http://localhost..",
  "http://app.localhost..",
  "http://ｌｏｃａｌｈｏｓｔ",
  "http://localhost%2e",
];

describe("PUBLIC_URL in production: other spellings of the local machine", () => {
  it.each(LOOPBACK)("refuses %s", (value) => {
    expect(() => parseConfig({ ...production, PUBLIC_URL: value })).toThrow(
      /^Invalid configuration: PUBLIC_URL must not be a loopback address in production/,
    );
  });

  it.each(LOOPBACK)("takes %s when dev providers are allowed", (value) => {
    expect(parseConfig({ ...production, PUBLIC_URL: value, ALLOW_DEV_PROVIDERS: "true" }).PUBLIC_URL).toBe(value);
  });
});
