import { describe, expect, it } from "vitest";
import { parseConfig } from "../env";
import { PRODUCTION_PROVIDERS } from "../test/app";

/**
 * In production PUBLIC_URL must not be a loopback address (no student's
 * browser reaches the server there) unless dev providers are allowed. It
 * once knew localhost, *.localhost, 127.0.0.0/8 and [::1], but not the
 * other spellings that reach the student's own machine: the IPv4-mapped
 * [::ffff:127.0.0.1] (browsers and Node connect it to 127.0.0.1), the
 * IPv4-compatible [::127.0.0.1], the unspecified 0.0.0.0 (also written "0")
 * and [::], which Linux and macOS connect to the local machine.
 */
const secret = "aXLP6TM1c3Rrs9zguWYrcJ0otpwKcn0W5D15PLlv6s7QvJn21g6iTs5Kgj-OsRic";
const production = { NODE_ENV: "production", JWT_SECRET: secret, ...PRODUCTION_PROVIDERS };

describe("PUBLIC_URL in production: every spelling of the local machine is refused", () => {
  it.each([
    "http://[::ffff:127.0.0.1]:3000",
    "https://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]",
    "http://0.0.0.0:3000",
    "http://0:3000",
    "http://[::]:3000",
  ])("refuses PUBLIC_URL=%s", (value) => {
    expect(() => parseConfig({ ...production, PUBLIC_URL: value })).toThrow(
      /^Invalid configuration: PUBLIC_URL must not be a loopback address in production/,
    );
  });
});

describe("PUBLIC_URL in production: a real host is not mistaken for one", () => {
  it.each(["https://127.campus.edu", "https://quad.example.edu:8443/app", "https://[2001:db8::1]"])(
    "takes PUBLIC_URL=%s",
    (value) => {
      expect(parseConfig({ ...production, PUBLIC_URL: value }).PUBLIC_URL).toBe(value);
    },
  );
});
