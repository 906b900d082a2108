import { SCREEN_TEXT } from "@quad/contracts";
import { screen, waitFor } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { createVoteCards, inboxAnswers, server, votesPage } from "../../test/msw";
import { VotedOnYouButton } from "../inbox/home-entry";
import { findDialog, renderSignedIn } from "../inbox/test-support";
import { useLiveUpdates } from "./use-live-updates";

function Live() {
  useLiveUpdates();
  return null;
}

function cardCount() {
  return document.querySelectorAll("ul[aria-label='Votes you received'] > li").length;
}

/** The server's stream as tRPC's subscription link reads it: `push` writes an SSE block. */
function liveStream() {
  const requests: Request[] = [];
  const encoder = new TextEncoder();
  let push: (block: string) => void = () => {};
  const handler = http.get(/\/api\/trpc\/live\.events/, ({ request }) => {
    requests.push(request);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (block) => controller.enqueue(encoder.encode(block));
        push("event: connected\ndata: {}\n\n");
      },
    });
    return new HttpResponse(body, { headers: { "content-type": "text/event-stream" } });
  });
  return { handler, requests, push: (block: string) => push(block) };
}

describe("live updates", { timeout: 20_000 }, () => {
  it("a vote event refreshes the open inbox: the new card shows without a tap, the token in a header", async () => {
    const [older, newer] = createVoteCards(2);
    const backend = inboxAnswers({ pages: [votesPage([older!]), votesPage([newer!, older!])] });
    const live = liveStream();
    const view = renderSignedIn(
      <>
        <VotedOnYouButton />
        <Live />
      </>,
      backend,
    );
    server.use(live.handler);
    await view.user.click(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }));
    await findDialog(SCREEN_TEXT.votedOnYou);
    await waitFor(() => expect(cardCount()).toBe(1));

    await waitFor(() => expect(live.requests).toHaveLength(1), { timeout: 5_000 });
    const [request] = live.requests;
    expect(request!.headers.get("authorization")).toMatch(/^Bearer \S+/);
    expect(request!.url).not.toMatch(/token|Bearer|connectionParams/i);

    live.push(`id: sealed-1\ndata: ${JSON.stringify({ type: "vote", card: newer })}\n\n`);
    await waitFor(() => expect(cardCount()).toBe(2), { timeout: 5_000 });
    expect(backend.sent("inbox.received")).toHaveLength(2);
  });

  it("a vote event, and a reopened stream, refresh home's new-votes count without a tap", async () => {
    let newVotes = 0;
    const backend = inboxAnswers({ overrides: { "inbox.newVotes": () => ({ count: newVotes }) } });
    const live = liveStream();
    renderSignedIn(
      <>
        <VotedOnYouButton />
        <Live />
      </>,
      backend,
    );
    server.use(live.handler);
    await waitFor(() => expect(live.requests).toHaveLength(1), { timeout: 5_000 });
    expect(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).textContent).toBe(
      SCREEN_TEXT.seeWhoVotedForYou,
    );

    newVotes = 1;
    const [card] = createVoteCards(1);
    live.push(`id: sealed-1\ndata: ${JSON.stringify({ type: "vote", card })}\n\n`);
    await waitFor(
      () => expect(screen.getByRole("button", { name: /^See who voted for you/ }).textContent).toMatch(/1 new$/),
      {
        timeout: 5_000,
      },
    );

    newVotes = 2;
    live.push(`data: ${JSON.stringify({ type: "ready" })}\n\n`);
    await waitFor(
      () => expect(screen.getByRole("button", { name: /^See who voted for you/ }).textContent).toMatch(/2 new$/),
      {
        timeout: 5_000,
      },
    );
  });
});
