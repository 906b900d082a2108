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
function placeholderIn(secret: string): string | undefined {
  const plain = secret.toLowerCase().replace(/[^a-z0-9]/g, "");
  return PLACEHOLDER_WORDS.find((word) => plain.includes(word));
}

/**
 * How many guesses the secret would take, in bits, as zxcvbn estimates it:
 * it finds sequences ("0123…", "abc…xyz"), repeats, keyboard walks and
 * common passwords, and counts what is left as brute force. 48 random bytes
 * in base64 score about 212 bits, 32 in hex about 211, 32 in base64 about
 * 146; "0123456789" four times scores 7, the alphabet and digits in order
 * 26. Loaded on first use: only a production start asks.
 */
export async function estimatedBits(secret: string): Promise<number> {
  const [{ ZxcvbnFactory }, { adjacencyGraphs, dictionary }] = await Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
  ]);
  const { guessesLog10 } = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs }).check(secret);
  return guessesLog10 * Math.log2(10);
}

/** Why a production secret is a placeholder (completing "JWT_SECRET …"), or undefined. */
export function placeholderReason(secret: string): string | undefined {
  const word = placeholderIn(secret);
  return word ? `is a placeholder (it contains "${word}"); ${SECRET_HINT}` : undefined;
}

/** Why a production secret is refused (completing "JWT_SECRET …"), or undefined when it is fine. */
export async function weakSecretReason(secret: string): Promise<string | undefined> {
  const placeholder = placeholderReason(secret);
  if (placeholder) return placeholder;
  const bits = Math.floor(await estimatedBits(secret));
  if (bits < MIN_SECRET_BITS)
    return `is too easy to guess (about ${bits} bits by a password-strength estimate, ${MIN_SECRET_BITS} needed: 32 random bytes or more); ${SECRET_HINT}`;
  return undefined;
}
