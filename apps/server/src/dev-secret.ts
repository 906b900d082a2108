import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * In development the token-signing secret is generated once into $DATA_DIR,
 * so sessions survive restarts without anyone configuring a secret.
 */
export async function devJwtSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "jwt-secret");
  try {
    const existing = (await readFile(file, "utf8")).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // Not there yet: create it below.
  }
  const secret = randomBytes(48).toString("base64url");
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}
