/**
 * Rules for the token-signing secret in production
 * (docs/decisions/0012-security-headers.md). Anyone who knows the secret can
 * sign a session for any student, so a value copied from an example, or one
 * short and repetitive enough to guess, is refused at start.
 */

/** The fewest bits a production secret must carry, by the estimate below. */
export const MIN_SECRET_BITS = 128;

/** How to make a good one; printed with every refusal. */
export const SECRET_HINT = "generate one with: openssl rand -base64 48";

/**
 * Words of the placeholders in examples, compose files and tutorials,
 * compared with the secret lower-cased and stripped to letters and digits
 * (48 random bytes in base64 contain one by chance about once in 6 million).
 */
export const PLACEHOLDER_WORDS = [
  "changeme",
  "replaceme",
  "secret",
  "password",
  "placeholder",
  "example",
  "default",
  "sample",
  "insecure",
  "notsecure",
  "qwerty",
  "xxxxxxxx",
] as const;

/** The placeholder word a secret contains, if any. */
export function placeholderIn(secret: string): string | undefined {
  const plain = secret.toLowerCase().replace(/[^a-z0-9]/g, "");
  return PLACEHOLDER_WORDS.find((word) => plain.includes(word));
}

/**
 * The secret's Shannon entropy in bits: the entropy of its own character
 * frequencies times its length. Repetition and small alphabets score low
 * ("aaaa…" 0, "abab…" 1 bit a character); 48 random bytes in base64
 * score about 330 (never below 300 in 2,000 tries). It underestimates short
 * random strings (32 random hex digits carry 128 bits but score 97-128,
 * median 116), hence the 48-byte hint.
 */
export function estimatedBits(secret: string): number {
  const chars = [...secret];
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) {
    const p = n / chars.length;
    perChar -= p * Math.log2(p);
  }
  return perChar * chars.length;
}

/** Why a production secret is refused (completing "JWT_SECRET …"), or undefined when it is fine. */
export function weakSecretReason(secret: string): string | undefined {
  const word = placeholderIn(secret);
  if (word) return `is a placeholder (it contains "${word}"); ${SECRET_HINT}`;
  const bits = Math.floor(estimatedBits(secret));
  if (bits < MIN_SECRET_BITS)
    return `is too easy to guess (about ${bits} bits of entropy, ${MIN_SECRET_BITS} needed); ${SECRET_HINT}`;
  return undefined;
}
