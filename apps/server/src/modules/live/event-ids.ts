import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Event ids are where a resume starts: the delivery horizon the stream had
 * been served up to (every vote delivered by then was sent to it), sealed
 * with the student it was issued to and when (AES-256-GCM under a key
 * derived from the server's secret), so the client learns nothing from it
 * and cannot forge or borrow one. Any process with the same secret reads
 * them, before or after a restart: the votes are durable rows, not memory.
 */
export interface EventIds {
  seal(id: EventPosition): string;
  /**
   * The horizon to resume from, or undefined (start afresh) for an id this
   * server did not issue, one issued to another student, or one older than
   * a reconnect needs.
   */
  open(id: string, owner: string, nowMs: number): number | undefined;
}

export interface EventPosition {
  owner: string;
  issuedAtMs: number;
  /** Every vote delivered by this moment (ms since the epoch) was sent. */
  horizonMs: number;
}

/** A resume is for a dropped connection; the client refreshes what it shows on `ready` after any longer gap. */
export const RESUME_MAX_AGE_MS = 5 * 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MS = /^\d{1,15}$/;

export function createEventIds(secret: string): EventIds {
  const key = createHash("sha256").update(`quad live event ids v2\0${secret}`).digest();
  return {
    seal({ owner, issuedAtMs, horizonMs }) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const text = `${owner}|${Math.floor(issuedAtMs)}|${Math.floor(horizonMs)}`;
      const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
    },
    open(id, owner, nowMs) {
      const [sealedFor = "", issued = "", horizon = ""] = unseal(key, id)?.split("|") ?? [];
      if (!UUID.test(sealedFor) || !MS.test(issued) || !MS.test(horizon)) return undefined;
      if (sealedFor !== owner) return undefined;
      const age = nowMs - Number(issued);
      if (age < 0 || age > RESUME_MAX_AGE_MS) return undefined;
      return Number(horizon);
    },
  };
}

function unseal(key: Buffer, id: string): string | undefined {
  try {
    const raw = Buffer.from(id, "base64url");
    if (raw.length < 12 + 16 + 1) return undefined;
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString();
  } catch {
    return undefined;
  }
}
