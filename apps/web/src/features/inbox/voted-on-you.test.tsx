import { INBOX_NEW_VOTES_MAX, LOCKED_NAME_PLACEHOLDER, SCREEN_TEXT, TOASTS, type VoteCard } from "@quad/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createVoteCards, inboxAnswers, revealedVoteCard, server, trpcError, votesPage } from "../../test/msw";
import { VotedOnYouButton } from "./home-entry";
import { findDialog, renderSignedIn } from "./test-support";
import { EMPTY_INBOX_HOW, EMPTY_INBOX_MEANWHILE, newVotesLabel, VOTES_ARRIVE_WITHIN_THE_HOUR } from "./texts";

async function openVotes(backend: ReturnType<typeof inboxAnswers>) {
  const view = renderSignedIn(<VotedOnYouButton />, backend);
  await view.user.click(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }));
  const modal = await findDialog(SCREEN_TEXT.votedOnYou);
  return { ...view, modal };
}

// Role queries over a grid of cards take seconds in jsdom: count and find by text there.
function cardCount() {
  return document.querySelectorAll("ul[aria-label='Votes you received'] > li").length;
}

describe("Voted on you", { timeout: 20_000 }, () => {
  it('shows "Loading votes..." and then the cards, locked ones with the placeholder name', async () => {
    const votes: VoteCard[] = createVoteCards(2);
    votes[1] = revealedVoteCard(votes[1]!, { name: "Riley", graduationYear: 2027 });
    const backend = inboxAnswers({ votes });
    let release = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const view = renderSignedIn(<VotedOnYouButton />, backend);
    server.use(
      backend.handler({
        "inbox.received": async (call) => {
          await answered;
          return backend.resolvers["inbox.received"]!(call);
        },
      }),
    );
    await view.user.click(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }));
    const modal = await findDialog(SCREEN_TEXT.votedOnYou);

    expect(modal.getByText(SCREEN_TEXT.loadingVotes)).toBeTruthy();
    release();
    await waitFor(() => expect(cardCount()).toBe(2));
    const [locked, unlocked] = within(screen.getByRole("list", { name: "Votes you received" })).getAllByRole(
      "listitem",
    );
    expect(within(locked!).getByText(LOCKED_NAME_PLACEHOLDER)).toBeTruthy();
    expect(within(locked!).getByText("Prompt number 1")).toBeTruthy();
    // A locked card's time is its hour: no minutes are claimed that the server does not give.
    expect(within(locked!).getByText("this hour")).toBeTruthy();
    expect(within(locked!).getByRole("button", { name: "View" })).toBeTruthy();
    // A locked card draws its placeholder: no image is loaded for it at all.
    expect(locked!.querySelector("img")).toBeNull();
    expect(locked!.querySelector("[data-locked-portrait]")).not.toBeNull();
    expect(unlocked!.querySelector("img")?.getAttribute("src")).toBe(votes[1]!.photo);
    expect(within(unlocked!).getByText("Riley")).toBeTruthy();
    expect(within(unlocked!).getByText("’27")).toBeTruthy();
    // A revealed card too: its exact time would be what a friend's inbox is matched against.
    expect(within(unlocked!).getByText("1 hr. ago")).toBeTruthy();
    // Says plainly what an unlock reveals.
    expect(screen.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou }).textContent).toMatch(
      /name, photo, class year, emojis and Instagram handle/,
    );
    expect(modal.queryByText("Load More")).toBeNull();
  });

  it("shows the empty state when nobody has voted yet: how votes arrive, what to do meanwhile, and the way back", async () => {
    const { modal, user } = await openVotes(inboxAnswers({ votes: [] }));
    expect(await modal.findByText(SCREEN_TEXT.noVotesTitle)).toBeTruthy();
    expect(modal.getByText(SCREEN_TEXT.noVotesBody)).toBeTruthy();
    expect(modal.getByText(EMPTY_INBOX_HOW)).toBeTruthy();
    expect(modal.getByText(VOTES_ARRIVE_WITHIN_THE_HOUR)).toBeTruthy();
    expect(modal.getByText(EMPTY_INBOX_MEANWHILE)).toBeTruthy();
    expect(modal.getByRole("button", { name: "Boost" })).toBeTruthy();
    await user.click(modal.getByRole("button", { name: "Back to voting" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("says how votes arrive above the first cards a student sees, until she says she got it", async () => {
    localStorage.clear();
    const backend = inboxAnswers({ votes: createVoteCards(2) });
    const { modal, user } = await openVotes(backend);
    await waitFor(() => expect(cardCount()).toBe(2));
    expect(modal.getByRole("note").textContent).toContain(VOTES_ARRIVE_WITHIN_THE_HOUR);
    await user.click(modal.getByRole("button", { name: "Got it" }));
    expect(modal.queryByRole("note")).toBeNull();
    // Closed and opened again: the note stays dismissed.
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await user.click(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }));
    const again = await findDialog(SCREEN_TEXT.votedOnYou);
    await waitFor(() => expect(cardCount()).toBe(2));
    expect(again.queryByRole("note")).toBeNull();
    // Closed before the test ends: an open list tells the server when it goes, which the next test would hear.
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(backend.sent("inbox.markOpened").length).toBeGreaterThanOrEqual(4));
  });

  it("shows how many votes are new on the entry, and opening the list tells the server and clears it", async () => {
    const backend = inboxAnswers({ votes: createVoteCards(3), newVotes: 3 });
    const view = renderSignedIn(<VotedOnYouButton />, backend);
    const entry = await screen.findByRole("button", { name: /^See who voted for you\W+3 new$/ });
    expect(backend.sent("inbox.markOpened")).toHaveLength(0);
    await view.user.click(entry);
    await findDialog(SCREEN_TEXT.votedOnYou);
    await waitFor(() => expect(backend.sent("inbox.markOpened")).toHaveLength(1));
    await waitFor(() => expect(entry.textContent).toBe(SCREEN_TEXT.seeWhoVotedForYou));
  });

  it('says "99+ new" at the cap of the count and nothing when none are new', async () => {
    expect(newVotesLabel(INBOX_NEW_VOTES_MAX)).toBe("99+ new");
    expect(newVotesLabel(4)).toBe("4 new");
    renderSignedIn(<VotedOnYouButton />, inboxAnswers({ newVotes: 0 }));
    const entry = await screen.findByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou });
    expect(entry.textContent).toBe(SCREEN_TEXT.seeWhoVotedForYou);
  });

  it('toasts "Failed to load votes" when the list cannot be loaded, and can try again', async () => {
    const backend = inboxAnswers({ votes: createVoteCards(3) });
    let fail = true;
    const view = renderSignedIn(<VotedOnYouButton />, backend);
    server.use(
      backend.handler({
        "inbox.received": (call) =>
          fail ? trpcError("FORBIDDEN", "Nope") : backend.resolvers["inbox.received"]!(call),
      }),
    );
    await view.user.click(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }));
    const modal = await findDialog(SCREEN_TEXT.votedOnYou);

    await waitFor(() => expect(screen.getAllByText(TOASTS.loadVotesFailed).length).toBe(2)); // inline + toast
    fail = false;
    await view.user.click(modal.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(cardCount()).toBe(3));
  });

  it('"Load More" appends the next page by cursor; Refresh goes back to page 1', async () => {
    const votes = createVoteCards(25);
    const [first, second, third] = [
      votesPage(votes.slice(0, 10), "10"),
      votesPage(votes.slice(10, 20), "20"),
      votesPage(votes.slice(20)),
    ];
    // Load More, Refresh (page 1 again), Load More twice.
    const backend = inboxAnswers({ pages: [first, second, first, second, third] });
    const { modal, user } = await openVotes(backend);
    await waitFor(() => expect(cardCount()).toBe(10));

    await user.click(modal.getByText("Load More"));
    await waitFor(() => expect(cardCount()).toBe(20));
    expect(screen.getByText("Prompt number 1")).toBeTruthy();
    expect(screen.getByText("Prompt number 20")).toBeTruthy();
    expect(backend.sent("inbox.received")).toEqual([{ limit: 10 }, { limit: 10, cursor: "10" }]);

    await user.click(modal.getByText("Refresh"));
    await waitFor(() => expect(cardCount()).toBe(10));
    expect(backend.sent("inbox.received").at(-1)).toEqual({ limit: 10 });
    expect(screen.queryByText("Prompt number 11")).toBeNull();

    await user.click(modal.getByText("Load More"));
    await user.click(await modal.findByText("Load More"));
    await waitFor(() => expect(cardCount()).toBe(25));
    expect(modal.queryByText("Load More")).toBeNull();
  });

  it("opens again at page 1 after being closed", async () => {
    const votes = createVoteCards(15);
    const first = votesPage(votes.slice(0, 10), "10");
    const backend = inboxAnswers({ pages: [first, votesPage(votes.slice(10)), first] });
    const { modal, user } = await openVotes(backend);
    await waitFor(() => expect(cardCount()).toBe(10));
    await user.click(modal.getByText("Load More"));
    await waitFor(() => expect(cardCount()).toBe(15));

    await user.click(modal.getByLabelText("Close"));
    expect(screen.queryByRole("dialog")).toBeNull();
    await user.click(screen.getByText(SCREEN_TEXT.seeWhoVotedForYou));
    await findDialog(SCREEN_TEXT.votedOnYou);
    await waitFor(() => expect(backend.sent("inbox.received").at(-1)).toEqual({ limit: 10 }));
    expect(cardCount()).toBe(10);
  });

  it("opens without a tap when a vote notification was opened, and says when it is put away", async () => {
    let closed = 0;
    const view = renderSignedIn(
      <VotedOnYouButton openFromNotice onClosed={() => closed++} />,
      inboxAnswers({ votes: createVoteCards(3) }),
    );
    const modal = await findDialog(SCREEN_TEXT.votedOnYou);
    await waitFor(() => expect(cardCount()).toBe(3));
    await view.user.click(modal.getByLabelText("Close"));
    expect(closed).toBe(1);
  });

  it('"Boost" opens the boost options', async () => {
    const { modal, user } = await openVotes(inboxAnswers({ votes: [] }));
    await user.click(modal.getByRole("button", { name: "Boost" }));
    const boost = await findDialog("Boost your profile");
    expect(boost.getByText(SCREEN_TEXT.boostTagline)).toBeTruthy();
  });
});
