import { describe, expect, it } from "vitest";
import { parseConfig } from "../env";
import { PRODUCTION_PROVIDERS } from "../test/app";

/**
 * Besides localhost, the hosts files Linux distributions ship name the
 * loopback addresses ip6-localhost and ip6-loopback (Debian, Ubuntu) or
 * localhost.localdomain, localhost4 and localhost6 with their .localdomain4/6
 * forms (Red Hat, Fedora). A student's machine answers those names itself,
 * so in production PUBLIC_URL must not be one, whatever its case or trailing dot.
 */
const secret = "aXLP6TM1c3Rrs9zguWYrcJ0otpwKcn0W5D15PLlv6s7QvJn21g6iTs5Kgj-OsRic";
const production = { NODE_ENV: "production", JWT_SECRET: secret, ...PRODUCTION_PROVIDERS };

describe("PUBLIC_URL in production: a hosts file's loopback names are refused", () => {
  it.each([
    "http://localhost.localdomain:3000",
    "http://LOCALHOST.LOCALDOMAIN.",
    "http://localhost4",
    "http://localhost4.localdomain4",
    "https://localhost6/",
    "http://localhost6.localdomain6:8080",
    "http://ip6-localhost:3000",
    "http://ip6-loopback",
  ])("refuses PUBLIC_URL=%s", (value) => {
    expect(() => parseConfig({ ...production, PUBLIC_URL: value })).toThrow(
      /^Invalid configuration: PUBLIC_URL must not be a loopback address in production/,
    );
  });

  it.each(["https://localdomain.example.edu", "https://ip6.campus.edu", "https://localhost4u.edu"])(
    "takes PUBLIC_URL=%s",
    (value) => {
      expect(parseConfig({ ...production, PUBLIC_URL: value }).PUBLIC_URL).toBe(value);
    },
  );

  it("takes one with ALLOW_DEV_PROVIDERS (a demo on one machine)", () => {
    const config = parseConfig({ ...production, ALLOW_DEV_PROVIDERS: "true", PUBLIC_URL: "http://ip6-localhost:3000" });
    expect(config.PUBLIC_URL).toBe("http://ip6-localhost:3000");
  });
});
