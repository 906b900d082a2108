import { LOCKED_NAME_PLACEHOLDER, SCREEN_TEXT, TOASTS } from "@quad/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import {
  createFlashSale,
  createMeUser,
  createVoteCards,
  inboxAnswers,
  revealedVoteCard,
  server,
  TEST_CARDS,
  trpcError,
  type InboxAnswers,
  type TrpcResolvers,
  votesPage,
} from "../../test/msw";
import { cachedProfile } from "../../test/render";
import { VotedOnYouButton } from "./home-entry";
import { fillCard, findDialog, renderSignedIn } from "./test-support";

const VOTER = { name: "Jordan", graduationYear: 2026, instagramHandle: "@jordan.builds", emojis: ["🚀"] };

/** Opens the list and the first card's detail. */
async function openFirstVote(backend: InboxAnswers, storedUser: { remainingUnlocks?: number } = {}) {
  const view = renderSignedIn(<VotedOnYouButton />, backend, storedUser);
  await view.user.click(screen.getByText(SCREEN_TEXT.seeWhoVotedForYou));
  const list = await findDialog(SCREEN_TEXT.votedOnYou);
  const [view1] = await list.findAllByText("View");
  await view.user.click(view1!);
  const detail = await findDialog(LOCKED_NAME_PLACEHOLDER);
  return { ...view, detail };
}

/** Three locked votes; unlocking answers the first one's voter and one credit fewer, and the list then shows them. */
function backendWithVotes(remainingUnlocks: number, overrides: TrpcResolvers = {}) {
  const votes = createVoteCards(3);
  const unlockedUser = revealedVoteCard(votes[0]!, VOTER);
  return inboxAnswers({
    pages: [votesPage(votes), votesPage([unlockedUser, ...votes.slice(1)])],
    me: { remainingUnlocks },
    unlock: { unlockedUser, remainingUnlocks: Math.max(0, remainingUnlocks - 1) },
    overrides,
  });
}

// Whole flows through several dialogs: generous time for a busy machine.
describe("vote detail and unlock", { timeout: 20_000 }, () => {
  it("shows the prompt and keeps the voter hidden until unlocked", async () => {
    const { detail } = await openFirstVote(backendWithVotes(1));
    expect(detail.getByText(SCREEN_TEXT.votedOnYouFor)).toBeTruthy();
    expect(detail.getByText("Prompt number 1")).toBeTruthy();
    expect(detail.getAllByText("Hidden until unlocked")).toHaveLength(2); // class year and handle
    // Behind the blur: dots, no value real or invented (no year, no handle).
    expect(detail.getByText("@••••••••")).toBeTruthy();
    expect(detail.queryByText(/\b20\d\d\b/)).toBeNull();
    expect(detail.queryByText(VOTER.instagramHandle)).toBeNull();
    expect(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails })).toBeTruthy();
  });

  it('with credits: "Use Unlock Credit?", then the card is revealed and the credits updated', async () => {
    const backend = backendWithVotes(2);
    const { detail, user } = await openFirstVote(backend);

    await user.click(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }));
    const confirm = await findDialog(SCREEN_TEXT.useUnlockCredit);
    expect(confirm.getByText(/You have 2 unlocks left/)).toBeTruthy();
    await user.click(confirm.getByRole("button", { name: "Use 1 unlock" }));

    expect(await screen.findByText(TOASTS.profileUnlocked)).toBeTruthy();
    const revealed = await findDialog(VOTER.name);
    expect(revealed.getByRole("link", { name: VOTER.instagramHandle }).getAttribute("href")).toBe(
      "https://instagram.com/jordan.builds",
    );
    expect(revealed.getByText("2026")).toBeTruthy();
    // Copy puts the whole handle on the clipboard.
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await user.click(revealed.getByRole("button", { name: `Copy ${VOTER.instagramHandle}` }));
    expect(writeText).toHaveBeenCalledWith(VOTER.instagramHandle);
    expect(await screen.findByText("Handle copied")).toBeTruthy();
    expect(revealed.queryByRole("button", { name: SCREEN_TEXT.unlockDetails })).toBeNull();
    expect(backend.sent("inbox.unlock")).toHaveLength(1);
    expect(cachedProfile()?.remainingUnlocks).toBe(1);
    // The grid shows the revealed card too.
    await user.click(revealed.getByRole("button", { name: "Done" }));
    expect(await screen.findByText(VOTER.name)).toBeTruthy();
  });

  it("cancelling the confirmation spends nothing", async () => {
    const backend = backendWithVotes(1);
    const { detail, user } = await openFirstVote(backend);
    await user.click(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }));
    await user.click((await findDialog(SCREEN_TEXT.useUnlockCredit)).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog", { name: SCREEN_TEXT.useUnlockCredit })).toBeNull();
    expect(backend.sent("inbox.unlock")).toHaveLength(0);
  });

  it("without credits: the flash sale offers only unlock-1, and after paying the unlock proceeds by itself", async () => {
    // Once paid for, the profile has the credit bought.
    const backend = backendWithVotes(0, { "users.me": () => createMeUser({ remainingUnlocks: 1 }) });
    const { detail, user } = await openFirstVote(backend);

    await user.click(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }));
    const sale = await findDialog("Flash sale");
    expect(screen.queryByRole("dialog", { name: SCREEN_TEXT.useUnlockCredit })).toBeNull();
    expect(sale.getByText("$0.99")).toBeTruthy();
    expect(sale.getByText("$2.99").tagName).toBe("S");
    expect(sale.getByText("67% off")).toBeTruthy();
    expect(sale.queryByText("$7.99")).toBeNull();

    await user.click(sale.getByRole("button", { name: "Unlock for $0.99" }));
    const checkout = await fillCard(user, TEST_CARDS.success);
    await user.click(checkout.getByRole("button", { name: "Pay $0.99" }));

    expect(await screen.findByText(TOASTS.paymentSuccessful)).toBeTruthy();
    expect(await screen.findByText(TOASTS.profileUnlocked)).toBeTruthy();
    expect(await findDialog(VOTER.name)).toBeTruthy();
    expect(backend.sent("payments.createPaymentIntent")).toEqual([{ productId: "unlock-1" }]);
    expect(backend.sent("inbox.unlock")).toHaveLength(1);
    expect(cachedProfile()?.remainingUnlocks).toBe(0);
    expect(screen.queryByRole("dialog", { name: "Flash sale" })).toBeNull();
    expect(screen.queryByRole("dialog", { name: "Checkout" })).toBeNull();
  });

  it("the flash sale shows its real end: time left and the clock time, from the server's offer", async () => {
    const backend = backendWithVotes(0);
    const { detail, user } = await openFirstVote(backend);
    await user.click(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }));
    const sale = await findDialog("Flash sale");
    const end = new Date(Date.parse(backend.flashSale.endsAt));
    expect(await sale.findByText(/^(20h 0m|19h 59m) left · Ends /)).toBeTruthy();
    const time = end.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
    expect(sale.getByText(new RegExp(`Ends (\\w{3} )?${time}$`))).toBeTruthy();
  });

  it("an open flash sale turns to the regular price by itself when it ends", async () => {
    const votes = createVoteCards(1);
    const endsAt = new Date(Date.now() + 1_000).toISOString();
    let ended = false;
    const backend = inboxAnswers({
      votes,
      me: { remainingUnlocks: 0 },
      overrides: {
        "payments.flashSale": () => createFlashSale({ active: !ended, endsAt }),
      },
    });
    const { detail, user } = await openFirstVote(backend);
    await user.click(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }));
    const sale = await findDialog("Flash sale");
    expect(await sale.findByText(/% off/)).toBeTruthy();
    ended = true;
    const regular = within(await screen.findByRole("dialog", { name: "Unlock this vote" }, { timeout: 5_000 }));
    expect(regular.getByText("$2.99")).toBeTruthy();
    expect(regular.queryByText(/% off/)).toBeNull();
  });

  it("once the student's sale has ended: the regular price, no discount, and that is what is charged", async () => {
    const votes = createVoteCards(1);
    const backend = inboxAnswers({ votes, me: { remainingUnlocks: 0 }, flashSale: { active: false } });
    const { detail, user } = await openFirstVote(backend);
    await user.click(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }));
    const dialog = await findDialog("Unlock this vote");
    expect(await dialog.findByText("$2.99")).toBeTruthy();
    expect(dialog.queryByText(/% off/)).toBeNull();
    await user.click(dialog.getByRole("button", { name: "Unlock for $2.99" }));
    const checkout = await fillCard(user, TEST_CARDS.success);
    expect(await checkout.findByRole("button", { name: "Pay $2.99" })).toBeTruthy();
  });

  it("a stale credit count meets the server's 402: its message, then the flash sale", async () => {
    const backend = backendWithVotes(0, {
      "inbox.unlock": () => trpcError("PAYMENT_REQUIRED", "You have no unlock credits left. Buy unlocks."),
    });
    const { detail, user } = await openFirstVote(backend, { remainingUnlocks: 1 });
    await user.click(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }));
    await user.click((await findDialog(SCREEN_TEXT.useUnlockCredit)).getByRole("button", { name: "Use 1 unlock" }));

    expect(await screen.findByText(/You have no unlock credits left/)).toBeTruthy();
    expect(await findDialog("Flash sale")).toBeTruthy();
    expect(cachedProfile()?.remainingUnlocks).toBe(0);
  });

  it('a failed unlock shows the server\'s message, or "Failed to unlock user"', async () => {
    const backend = backendWithVotes(2);
    const { detail, user } = await openFirstVote(backend);
    server.use(
      backend.handler({ "inbox.unlock": () => trpcError("CONFLICT", "This voter has deleted their account.") }),
    );
    await user.click(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }));
    await user.click((await findDialog(SCREEN_TEXT.useUnlockCredit)).getByRole("button", { name: "Use 1 unlock" }));
    expect(await screen.findByText("This voter has deleted their account.")).toBeTruthy();

    server.use(http.post("*/api/trpc/inbox.unlock", () => HttpResponse.error()));
    await user.click(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }));
    await user.click((await findDialog(SCREEN_TEXT.useUnlockCredit)).getByRole("button", { name: "Use 1 unlock" }));
    expect(await screen.findByText(TOASTS.unlockFailed)).toBeTruthy();
    await waitFor(() => expect(cachedProfile()?.remainingUnlocks).toBe(2));
  });
});
