import type { BenchRequest } from "./load";
import type { Protocol } from "./report";
import type { OpenRound, Voter } from "./voters";

export const trpcInput = (input: unknown) => `batch=1&input=${encodeURIComponent(JSON.stringify({ 0: input }))}`;
/** How the web client calls (httpBatchLink: `?batch=1`, a batch of one). */
export const trpcGet = (procedure: string, input: unknown): string => `/api/trpc/${procedure}?${trpcInput(input)}`;

/** GET /prompts/random: opens the voter's next round. */
export const openRoundRequest = (protocol: Protocol, v: Voter): BenchRequest => ({
  method: "GET",
  path: protocol === "REST" ? "/api/prompts/random?skip=false" : trpcGet("rounds.open", undefined),
  headers: v.headers,
});

/** POST /votes/store for the first candidate of the voter's open round. */
export function voteRequest(
  protocol: Protocol,
  v: Voter,
  round: Pick<OpenRound, "promptId" | "candidateId">,
): BenchRequest {
  const input = { userId: round.candidateId, promptId: round.promptId };
  return protocol === "REST"
    ? { method: "POST", path: "/api/votes/store", headers: v.headers, body: JSON.stringify(input) }
    : { method: "POST", path: "/api/trpc/rounds.vote?batch=1", headers: v.headers, body: JSON.stringify({ 0: input }) };
}
