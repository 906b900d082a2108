import { testPhone } from "./auth";
import { send, type Answer } from "./server-process";

/**
 * Students using the app while its database fails over: votes, sign-ups,
 * unlocks and payments from a real client's requests, every answer kept, and
 * every write the server answered 2xx remembered, so a test can look for it
 * in the database afterwards.
 */
export interface Student {
  id: string;
  headers: Record<string, string>;
}

export type WriteKind = "vote" | "signup" | "unlock" | "payment";
export interface LoadAnswer extends Answer {
  path: string;
  /** The write this request was, or undefined for a read. */
  write?: WriteKind;
}

export interface AnsweredWrites {
  votes: { voterId: string; recipientId: string; promptId: number }[];
  /** Phones whose code check answered with a session. */
  signups: string[];
  unlocks: { ownerId: string; voteId: string }[];
  /** Client secrets of payments confirmed to the student. */
  payments: string[];
}

const PAUSE_AFTER_FAILURE_MS = 100;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ok = (a: Answer) => a.status >= 200 && a.status < 300;

export function startLoad(
  base: string,
  opts: { voters: Student[]; recipients: Student[]; voteLanes: number; paceMs: number },
) {
  let running = true;
  const answers: LoadAnswer[] = [];
  const answered: AnsweredWrites = { votes: [], signups: [], unlocks: [], payments: [] };
  const voters = [...opts.voters];
  let nextVoter = 0;

  const call = async (path: string, write?: WriteKind, body?: unknown, headers?: Record<string, string>) => {
    const answer = await send(base, { path, body, headers });
    answers.push({ ...answer, path, write });
    if (!ok(answer)) await pause(PAUSE_AFTER_FAILURE_MS);
    return answer;
  };
  const json = <T>(answer: Answer) => JSON.parse(answer.body) as T;

  // Open the voter's round, vote for its first student; a voter whose allowance is spent leaves the rotation.
  const voteLane = async () => {
    while (running && voters.length > 0) {
      const voter = voters[nextVoter++ % voters.length]!;
      const round = await call("/api/prompts/random?skip=false", undefined, undefined, voter.headers);
      if (!ok(round)) continue;
      const opened = json<{ prompt?: { id: number }; users?: { id: string }[]; error?: string }>(round);
      if (!opened.prompt || !opened.users) {
        voters.splice(voters.indexOf(voter), 1);
        continue;
      }
      const choice = { userId: opened.users[0]!.id, promptId: opened.prompt.id };
      const vote = await call("/api/votes/store", "vote", choice, voter.headers);
      if (ok(vote)) answered.votes.push({ voterId: voter.id, recipientId: choice.userId, promptId: choice.promptId });
      if (vote.status === 429 || (ok(vote) && json<{ disabled: boolean }>(vote).disabled))
        voters.splice(voters.indexOf(voter), 1);
      await pause(opts.paceMs);
    }
  };

  // A new phone each time: the code is sent, read from the development outbox, and traded for a session.
  const signupLane = async () => {
    while (running) {
      const phone = testPhone();
      const sent = await call("/api/auth/send-code", "signup", { phone });
      if (!ok(sent)) continue;
      const { codeRequestId } = json<{ codeRequestId: string }>(sent);
      let code: string | undefined;
      while (running && !code) {
        const outbox = await call(`/api/dev/sms-outbox?phone=${encodeURIComponent(phone)}`);
        if (ok(outbox))
          code = /\b\d{6}\b/.exec(json<{ messages: { body: string }[] }>(outbox).messages[0]?.body ?? "")?.[0];
      }
      while (running && code) {
        const verified = await call("/api/auth/verify-code", "signup", {
          phone,
          code,
          codeRequestId,
          consents: { sms: true, terms: true },
        });
        if (ok(verified)) answered.signups.push(phone);
        // Anything but an unavailable database is an answer (a used code, a limit): on to the next phone.
        if (verified.status !== 503 && verified.status !== 0) break;
      }
      await pause(opts.paceMs);
    }
  };

  // A recipient unlocks their locked cards one by one and buys three unlocks when out of credits.
  const unlockLane = async (recipient: Student) => {
    while (running) {
      const inbox = await call("/api/votes/for-user?limit=50", undefined, undefined, recipient.headers);
      if (!ok(inbox)) continue;
      const locked = json<{ votes: { id: string; isUnlocked: boolean }[] }>(inbox).votes.filter((c) => !c.isUnlocked);
      if (locked.length === 0) return;
      const card = locked[Math.floor(Math.random() * locked.length)]!;
      const unlock = await call("/api/unlocks/unlock-user", "unlock", { userId: card.id }, recipient.headers);
      if (ok(unlock)) answered.unlocks.push({ ownerId: recipient.id, voteId: card.id });
      if (unlock.status === 402) await buy(recipient);
      await pause(opts.paceMs);
    }
  };
  const buy = async (recipient: Student) => {
    const intent = await call(
      "/api/payments/create-payment-intent",
      "payment",
      { productId: "unlock-3" },
      recipient.headers,
    );
    if (!ok(intent)) return;
    const { clientSecret } = json<{ clientSecret: string }>(intent);
    while (running) {
      const paid = await call(
        "/api/payments/local/confirm",
        "payment",
        { clientSecret, cardNumber: "4242 4242 4242 4242" },
        recipient.headers,
      );
      if (ok(paid)) answered.payments.push(clientSecret);
      if (paid.status !== 503 && paid.status !== 0) return;
    }
  };

  const lanes = Promise.all([
    ...Array.from({ length: opts.voteLanes }, voteLane),
    signupLane(),
    ...opts.recipients.map(unlockLane),
  ]);
  return {
    answers,
    answered,
    /** When the first write sent at or after `since` was answered 2xx (performance.now()), if one was. */
    firstWriteAfter(since: number): number | undefined {
      const times = answers.filter((a) => a.write && ok(a) && a.sentAt >= since).map((a) => a.sentAt + a.ms);
      return times.length > 0 ? Math.min(...times) : undefined;
    },
    /** The longest time between two 2xx write answers after `since`. */
    longestWriteGap(since: number): number {
      const times = answers
        .filter((a) => a.write && ok(a) && a.sentAt + a.ms >= since)
        .map((a) => a.sentAt + a.ms)
        .sort((x, y) => x - y);
      return times.slice(1).reduce((gap, t, i) => Math.max(gap, t - times[i]!), 0);
    },
    stop: async () => {
      running = false;
      await lanes;
    },
  };
}
