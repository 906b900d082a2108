import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import webPush from "web-push";

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

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * In development the VAPID key pair is generated once into $DATA_DIR, like
 * the token secret: browsers' subscriptions are bound to the public key, so
 * it must survive restarts.
 */
export async function devVapidKeys(dataDir: string): Promise<VapidKeys> {
  const file = path.join(dataDir, "vapid-keys.json");
  try {
    const existing = JSON.parse(await readFile(file, "utf8")) as Partial<VapidKeys>;
    if (typeof existing.publicKey === "string" && typeof existing.privateKey === "string") {
      return { publicKey: existing.publicKey, privateKey: existing.privateKey };
    }
  } catch {
    // Not there yet (or unreadable): create it below.
  }
  const keys = webPush.generateVAPIDKeys();
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}
