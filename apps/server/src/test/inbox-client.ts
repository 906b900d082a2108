import { InboxPage, Round, type NewVotes, type UnlockResult } from "@quad/contracts";
import type { FastifyInstance } from "fastify";

export type Protocol = "rest" | "trpc";
type Headers = Record<string, string>;

/**
 * The voting loop and the inbox over either protocol, as a client calls them:
 * REST's documented paths, or tRPC's procedures. Each answers its status and
 * the parsed data (tRPC's `result.data` unwrapped).
 */
export function inboxClient(app: FastifyInstance, protocol: Protocol) {
  const rest = protocol === "rest";
  const query = async (path: string, procedure: string, headers: Headers, input?: object) => {
    const url = rest
      ? `/api${path}`
      : `/api/trpc/${procedure}${input ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ""}`;
    return unwrap(await app.inject({ method: "GET", url, headers }));
  };
  const mutate = async (path: string, procedure: string, headers: Headers, payload: object) =>
    unwrap(
      await app.inject({ method: "POST", url: rest ? `/api${path}` : `/api/trpc/${procedure}`, headers, payload }),
    );
  const unwrap = (res: { statusCode: number; json(): unknown; body: string; headers: Record<string, unknown> }) => {
    const body = res.body ? (res.json() as { result?: { data?: unknown } }) : undefined;
    return { status: res.statusCode, data: rest ? body : body?.result?.data, body: res.body, headers: res.headers };
  };
  return {
    protocol,
    open: (headers: Headers) => query("/prompts/random?skip=false", "rounds.open", headers),
    vote: (headers: Headers, input: { userId: string; promptId: number }) =>
      mutate("/votes/store", "rounds.vote", headers, input),
    /** Opens a round and votes for `recipientId`, who must be in it. */
    async voteFor(headers: Headers, recipientId: string) {
      const opened = await this.open(headers);
      const round = Round.parse(opened.data);
      if (!round.users.some((user) => user.id === recipientId)) throw new Error("the recipient is not in the round");
      const voted = await this.vote(headers, { userId: recipientId, promptId: round.prompt.id });
      if (voted.status !== 200) throw new Error(`vote ${voted.status}: ${voted.body}`);
    },
    async received(headers: Headers, input: { limit?: number; cursor?: string; page?: number } = {}) {
      const search = new URLSearchParams(
        Object.entries(input).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
      const res = await query(`/votes/for-user${search ? `?${search}` : ""}`, "inbox.received", headers, input);
      return { ...res, page: res.status === 200 ? InboxPage.parse(res.data) : undefined };
    },
    async newVotes(headers: Headers) {
      const res = await query("/votes/new-count", "inbox.newVotes", headers);
      return (res.data as NewVotes).count;
    },
    unlock: async (headers: Headers, cardId: string) => {
      const res = await mutate("/unlocks/unlock-user", "inbox.unlock", headers, { userId: cardId });
      return { ...res, result: res.data as UnlockResult | undefined };
    },
    exportAccount: (headers: Headers) => query("/users/export", "account.export", headers),
    /** The live stream's URL and headers, as each protocol opens it (REST's Last-Event-ID, tRPC's input). */
    stream(headers: Headers, lastEventId?: string): { path: string; headers: Headers } {
      if (rest)
        return {
          path: "/api/live/events",
          headers: lastEventId ? { ...headers, "last-event-id": lastEventId } : headers,
        };
      const input = lastEventId ? `?input=${encodeURIComponent(JSON.stringify({ lastEventId }))}` : "";
      return { path: `/api/trpc/live.events${input}`, headers };
    },
  };
}
