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

/**
 * The network a sign-in requester is counted by (modules/auth/codes.ts), from
 * an `addressKey`: an IPv4 address as itself, an IPv6 /64 by its /48. A site
 * is given a /48 (a free tunnel broker or a small host hands one out), and
 * each of its 65,536 /64s would otherwise be a requester of its own, with a
 * first code of the day past the phone's daily texts and a try on it.
 */
export function siteKey(key: string): string {
  const match = key.match(/^([0-9a-f]+:[0-9a-f]+:[0-9a-f]+):[0-9a-f]+::\/64$/);
  return match ? `${match[1]}::/48` : key;
}
