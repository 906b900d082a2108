import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { VotePosition } from "../inbox/live-cards";

/**
 * Event ids are where a resume starts: a vote's exact time and id, sealed
 * (AES-256-GCM under a key derived from the server's secret) so the client
 * learns nothing finer than the card's hour from them, and cannot forge a
 * position. Any process with the same secret reads them, before or after a
 * restart: the position is in the durable `votes` rows, not in memory.
 */
export interface EventIds {
  seal(position: VotePosition): string;
  /** The position, or undefined for an id this server did not issue. */
  open(id: string): VotePosition | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function createEventIds(secret: string): EventIds {
  const key = createHash("sha256").update(`quad live event ids\0${secret}`).digest();
  return {
    seal(position) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(`${position.at}|${position.id}`, "utf8"), cipher.final()]);
      return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
    },
    open(id) {
      try {
        const raw = Buffer.from(id, "base64url");
        if (raw.length < 12 + 16 + 1) return undefined;
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(raw.length - 16));
        const text = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString();
        const [at = "", voteId = ""] = text.split("|");
        return ISO.test(at) && UUID.test(voteId) ? { at, id: voteId } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
