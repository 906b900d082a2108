import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/** Answers every address a host name has (dns.lookup with all: true, as Node resolves by default). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Only public unicast addresses may be posted to. ipaddr.js names every other
 * range: loopback, private (10/8, 172.16/12, 192.168/16), link-local (which
 * holds the cloud metadata address 169.254.169.254), carrier-grade NAT
 * (100.64/10), unique-local IPv6 (fc00::/7, where AWS's fd00:ec2::254 lies),
 * multicast, reserved, and the IPv6 forms that carry an IPv4 address inside
 * (IPv4-mapped addresses are judged as the IPv4 address they are). The
 * deprecated IPv4-compatible form (::a.b.c.d, the ::/96 block) it calls
 * unicast, so it is refused here: no push service is there, and ::7f00:1 is
 * 127.0.0.1 to some stacks.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (
    parsed.kind() === "ipv6" &&
    parsed
      .toByteArray()
      .slice(0, 12)
      .every((byte) => byte === 0)
  )
    return false;
  return parsed.range() === "unicast";
}

export class RefusedAddressError extends Error {
  readonly code = "EPUSHADDRESS";
  constructor(hostname: string, address: string) {
    super(`refused: ${hostname} resolves to ${address}, not a public address`);
    this.name = "RefusedAddressError";
  }
}

/**
 * A `lookup` for the push requests' sockets: resolves the name, refuses it if
 * any of its addresses is not public, and answers the checked addresses, so
 * the connection goes to exactly what was checked (a name that resolves
 * elsewhere a moment later, DNS rebinding, changes nothing).
 */
export function guardedLookup(resolve: Resolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((all) => {
        // Every address is checked, not only the family this socket asked for.
        const refused = allowPrivate ? undefined : all.find((a) => !isPublicAddress(a.address));
        if (refused) throw new RefusedAddressError(hostname, refused.address);
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = family ? all.filter((a) => a.family === family) : all;
        if (addresses.length === 0) throw Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" });
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, ""));
  };
}
