import { emailLocalPart } from "@quad/contracts";

/**
 * One mailbox, named once per school. A school's domains are aliases of one
 * another (jo@uw.edu and jo@washington.edu reach one inbox), so a mailbox is
 * its local part at the school's main domain: the unique key of a proof
 * (users.school_email_canonical) and what the per-address send limits count.
 */
export const canonicalMailbox = (address: string, mainDomain: string): string =>
  `${emailLocalPart(address)}@${mainDomain.toLowerCase()}`;

/** Every address of the school that reaches the same mailbox as `address`: its local part at each listed domain. */
export const mailboxAliases = (address: string, domains: readonly string[]): string[] => {
  const local = emailLocalPart(address);
  return [...new Set([address, ...domains.map((domain) => `${local}@${domain}`)])];
};
