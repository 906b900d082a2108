import { describe, expect, it } from "vitest";
import { isPublicAddress } from "./address-guard";

describe("isPublicAddress: where a push may be posted", () => {
  it.each(["142.250.80.10", "2a00:1450:4001:80b::200a"])("takes the public address %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    "127.0.0.1",
    "10.0.0.8",
    "172.16.4.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fd00:ec2::254",
    "fe80::1",
    "::ffff:127.0.0.1",
    // IPv4-compatible (deprecated ::/96): 127.0.0.1 and 10.0.0.1 inside.
    "::7f00:1",
    "::a00:1",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
