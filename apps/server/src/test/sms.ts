import { SMS_CONSENT_VERSION } from "@quad/contracts";
import { createDatabase, type Database, type DatabaseHandle } from "@quad/db";
import { consents, votes } from "@quad/db/schema";
import { insertTestPrompt } from "@quad/db/testing";
import type { SmsProvider } from "../modules/sms/sender";
import { urlOfTestDatabase } from "./postgres";

export interface FakeProvider extends SmsProvider {
  /** Every call, including failed ones. */
  calls: { to: string; body: string }[];
  /** Messages accepted. */
  delivered: { to: string; body: string }[];
  /** Replace to make the next calls fail (throw) or take time. */
  behaviour: (message: { to: string; body: string }, call: number) => void | Promise<void>;
}

/** A provider that records what it was asked to send; make it fail by setting `behaviour`. */
export function fakeProvider(): FakeProvider {
  let counter = 0;
  const provider: FakeProvider = {
    name: "twilio",
    calls: [],
    delivered: [],
    behaviour: () => {},
    async deliver(message) {
      provider.calls.push(message);
      await provider.behaviour(message, provider.calls.length);
      provider.delivered.push(message);
      counter += 1;
      return { providerMessageId: `SMfake${counter}` };
    },
  };
  return provider;
}

/** A clock tests move by hand. */
export function testClock(start: string | Date) {
  let at = new Date(start).getTime();
  return {
    now: () => new Date(at),
    set: (to: string | Date) => {
      at = new Date(to).getTime();
    },
    advance: (ms: number) => {
      at += ms;
    },
  };
}

/** Consent as sign-up records it, at a given time. */
export async function consentTo(db: Database, phone: string, at: Date, granted = true, source = "signup") {
  await db
    .insert(consents)
    .values({ phone, kind: "sms", granted, textVersion: SMS_CONSENT_VERSION, source, createdAt: at });
}

/** Stores n received votes, as the voting loop would (voters may be null: deleted). */
export async function giveVotes(db: Database, recipientId: string, voterIds: (string | null)[], at: Date) {
  const prompt = await insertTestPrompt(db);
  await db
    .insert(votes)
    .values(voterIds.map((voterId) => ({ voterId, recipientId, promptId: prompt.id, createdAt: at, deliveredAt: at })));
}

/**
 * A second connection pool to the same database, as a second server process
 * would have. On PGlite (one in-process database) the same handle is shared.
 */
export async function secondConnection(handle: DatabaseHandle, serverUrl: string | undefined): Promise<DatabaseHandle> {
  if (handle.kind !== "postgres" || !serverUrl) return { ...handle, close: async () => {} };
  return createDatabase({ url: await urlOfTestDatabase(handle.db, serverUrl), poolSize: 3 });
}
