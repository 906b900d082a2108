import { LOCKED_NAME_PLACEHOLDER, SCREEN_TEXT, type VoteCard } from "@quad/contracts";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import {
  inboxAnswers,
  createRound,
  createVoteCards,
  nthRound,
  recording,
  roundsAnswers,
  server,
  trpcError,
  trpcHandler,
} from "../../test/msw";
import { safetyAnswers } from "../../test/msw/safety";
import { renderApp, signInAs } from "../../test/render";
import { VotedOnYouButton } from "../inbox";
import { findDialog, renderSignedIn } from "../inbox/test-support";
import { RoundStage } from "../rounds/round-stage";
import { dialog, renderSafety } from "./test-support";
import { SAFETY_TEXT } from "./texts";

/**
 * /home for a student who sees girls, with canned safety answers: the open
 * round, then (the server having closed the round showing the student one
 * blocks) a fresh one.
 */
function startHome() {
  const rounds = roundsAnswers({ me: { gender: "male", preference: "female" }, rounds: [nthRound(0), nthRound(1)] });
  const safety = recording(safetyAnswers);
  server.use(trpcHandler({ ...inboxAnswers().resolvers, ...rounds.resolvers, ...safety.resolvers }));
  signInAs(rounds.me);
  renderApp("/home");
  return { rounds, safety, user: userEvent.setup({ pointerEventsCheck: 0 }) };
}

const prompt = (name: string) => screen.findByRole("heading", { level: 2, name }, { timeout: 5000 });

describe("block", { timeout: 20_000 }, () => {
  it("says plainly what a block does, and Cancel blocks no one", async () => {
    const { user, sent } = renderSafety();
    await user.click(screen.getByRole("button", { name: "Open menu" }));
    const menu = dialog("Maya");
    expect(menu.getByText(SAFETY_TEXT.blockHint)).toBeTruthy();
    await user.click(menu.getByRole("button", { name: /^Block Maya/ }));

    const confirm = dialog(SAFETY_TEXT.blockTitle("Maya"));
    for (const { text } of SAFETY_TEXT.blockConsequences("Maya")) expect(confirm.getByText(text)).toBeTruthy();
    await user.click(confirm.getByRole("button", { name: SAFETY_TEXT.cancel }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(sent("safety.block")).toHaveLength(0);
  });

  it("a failed block says so and keeps the confirmation open", async () => {
    const onBlocked = vi.fn();
    const { user } = renderSafety({
      onBlocked,
      overrides: { "safety.block": () => trpcError("NOT_FOUND", "Student not found") },
    });
    await user.click(screen.getByRole("button", { name: "Open menu" }));
    await user.click(dialog("Maya").getByRole("button", { name: /^Block Maya/ }));
    await user.click(dialog(SAFETY_TEXT.blockTitle("Maya")).getByRole("button", { name: "Block Maya" }));
    expect(await screen.findByText("Student not found")).toBeTruthy();
    expect(screen.getByRole("dialog", { name: SAFETY_TEXT.blockTitle("Maya") })).toBeTruthy();
    expect(onBlocked).not.toHaveBeenCalled();
  });

  it("from a candidate card: blocks by id, then a fresh round replaces the closed one", async () => {
    const { rounds, safety, user } = startHome();
    await prompt("Most likely to start a company");
    const maya = screen.getByRole("article", { name: "Maya" });
    await user.click(within(maya).getByRole("button", { name: SAFETY_TEXT.moreOptions("Maya") }));
    await user.click(dialog("Maya").getByRole("button", { name: /^Block Maya/ }));
    await user.click(dialog(SAFETY_TEXT.blockTitle("Maya")).getByRole("button", { name: "Block Maya" }));

    expect(await screen.findByText(SAFETY_TEXT.blocked("Maya"))).toBeTruthy();
    expect(safety.sent("safety.block")).toEqual([{ userId: "cand-female-0" }]);
    expect(await prompt("Best person to study with")).toBeTruthy();
    expect(screen.queryByRole("article", { name: "Maya" })).toBeNull();
    expect(rounds.sent("rounds.vote")).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("the landing's preview cards have no menu", () => {
    render(<RoundStage round={createRound()} onVote={() => undefined} />);
    expect(screen.getByRole("article", { name: "Maya" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: SAFETY_TEXT.moreOptions("Maya") })).toBeNull();
  });
});

describe("block from a vote card", { timeout: 20_000 }, () => {
  /** Opens the "Voted on you" list and the first card's detail. */
  async function openVote(card: VoteCard) {
    const backend = inboxAnswers({ votes: [card] });
    const safety = recording(safetyAnswers);
    const view = renderSignedIn(<VotedOnYouButton />, {
      ...backend,
      handler: () => trpcHandler({ ...backend.resolvers, ...safety.resolvers }),
    });
    await view.user.click(screen.getByText(SCREEN_TEXT.seeWhoVotedForYou));
    const list = await findDialog(SCREEN_TEXT.votedOnYou);
    await view.user.click((await list.findAllByText("View"))[0]!);
    return { ...view, safety };
  }

  it("a locked card offers nothing", async () => {
    await openVote(createVoteCards(1)[0]!);
    await findDialog(LOCKED_NAME_PLACEHOLDER);
    expect(screen.queryByRole("button", { name: /^More options/ })).toBeNull();
  });

  it("an unlocked card blocks by the card id, then the detail closes", async () => {
    const card = {
      ...createVoteCards(1)[0]!,
      isUnlocked: true as const,
      name: "Jordan",
      graduationYear: 2026,
      instagramHandle: "@jordan",
      emojis: [],
    };
    const { user, safety } = await openVote(card);
    const detail = await findDialog("Jordan");
    await user.click(detail.getByRole("button", { name: SAFETY_TEXT.moreOptions("Jordan") }));
    // The menu, titled with the name too, opens over the detail.
    const menu = within(screen.getAllByRole("dialog", { name: "Jordan" }).at(-1)!);
    await user.click(menu.getByRole("button", { name: /^Block Jordan/ }));
    await user.click(dialog(SAFETY_TEXT.blockTitle("Jordan")).getByRole("button", { name: "Block Jordan" }));
    expect(await screen.findByText(SAFETY_TEXT.blocked("Jordan"))).toBeTruthy();
    expect(safety.sent("safety.block")).toEqual([{ voteCardId: card.id }]);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Jordan" })).toBeNull());
    // Back on the list of votes.
    expect(screen.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou })).toBeTruthy();
  });
});
