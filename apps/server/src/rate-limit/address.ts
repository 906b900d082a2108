import { isIPv4, isIPv6 } from "node:net";

/**
 * The client address as per-address limits count it. An IPv6 client is
 * usually given a whole /64 (its provider's smallest allocation, and what
 * privacy extensions rotate within), so counting each address on its own
 * would give one client 2^64 budgets: IPv6 addresses count by their /64.
 * An IPv4 address written as IPv6 (`::ffff:203.0.113.7`, what a dual-stack
 * socket reports) counts as that IPv4 address.
 */
export function addressKey(ip: string): string {
  if (!ip.includes(":")) return ip;
  const bare = ip.replace(/%.*$/, "").toLowerCase();
  const mapped = bare.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(bare)) return ip;
  const [head, tail] = bare.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::ffff:… handled above; others are rare) takes two groups.
  const groups =
    tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(":")}::/64`;
}
