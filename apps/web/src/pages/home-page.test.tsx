import { SCREEN_TEXT, TOASTS } from "@quad/contracts";
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ACCOUNT_TEXT } from "../features/account/texts";
import { OFFER_TEXT } from "../features/push/texts";
import { NOT_NOW_MS, rememberNotNow, saidNotNow } from "../lib/not-now";
import { captureInstallPrompt } from "../lib/install-capture";
import {
  inboxAnswers,
  nthRound,
  outOfVotes,
  recording,
  roundsAnswers,
  server,
  trpcHandler,
  type RoundsAnswersOptions,
} from "../test/msw";
import { fakePushDevice, forgetFakePushDevice, VAPID_KEY } from "../test/push-device";
import { renderApp, signInAs } from "../test/render";

/** /home for a verified student, with the rounds the test states, `newVotes` new in the inbox and push configured. */
function startHome(options: RoundsAnswersOptions & { newVotes?: number } = {}) {
  const backend = roundsAnswers({ ...options, me: { gender: "male", preference: "female", ...options.me } });
  const inbox = inboxAnswers({ newVotes: options.newVotes ?? 0, config: { vapidPublicKey: VAPID_KEY } });
  const extra = recording({
    "push.subscribe": () => ({ subscribed: true }),
    "account.pause": ({ input }) => ({ ...backend.me, ...(input as { paused: boolean }) }),
  });
  server.use(trpcHandler({ ...inbox.resolvers, ...backend.resolvers, ...extra.resolvers }));
  signInAs(backend.me);
  const view = renderApp("/home");
  return { ...view, backend, sent: extra.sent };
}

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const prompt = (name: string) => screen.findByRole("heading", { level: 2, name }, { timeout: 5000 });
const offer = (name: string) => screen.findByRole("region", { name }, { timeout: 5000 });

afterEach(() => {
  forgetFakePushDevice();
  localStorage.clear();
  sessionStorage.clear();
});

describe("home: no dead ends", { timeout: 20_000 }, () => {
  it("out of votes: the countdown, the votes that arrived meanwhile, and notifications on in one tap", async () => {
    fakePushDevice();
    const { sent } = startHome({ rounds: [outOfVotes(minutesFromNow(30))], newVotes: 3 });
    expect(await screen.findByText(SCREEN_TEXT.outOfVotesTitle)).toBeTruthy();
    expect(screen.getByText(/^Time left: (29|30) minutes/)).toBeTruthy();
    expect(await screen.findByText("Meanwhile: 3 new votes in your inbox.")).toBeTruthy();
    const push = await offer(OFFER_TEXT.votesBackTitle);
    await userEvent.click(within(push).getByRole("button", { name: OFFER_TEXT.turnOn }));
    expect(await screen.findByText(OFFER_TEXT.turnedOn)).toBeTruthy();
    expect(sent("push.subscribe")).toHaveLength(1);
  });

  it("out of votes, after 'Not now' to notifications this week: the countdown and the count, no second ask", async () => {
    fakePushDevice();
    rememberNotNow("push");
    startHome({ rounds: [outOfVotes(minutesFromNow(30))], newVotes: 1 });
    expect(await screen.findByText("Meanwhile: 1 new vote in your inbox.")).toBeTruthy();
    expect(screen.queryByRole("region", { name: OFFER_TEXT.votesBackTitle })).toBeNull();
  });

  it("while paused, says so and resumes in one tap", async () => {
    const { sent } = startHome({ me: { paused: true } });
    const notice = await offer(ACCOUNT_TEXT.pausedNoticeTitle);
    expect(within(notice).getByText(ACCOUNT_TEXT.pausedNoticeBody)).toBeTruthy();
    await userEvent.click(within(notice).getByRole("button", { name: ACCOUNT_TEXT.resume }));
    await waitFor(() => expect(screen.queryByRole("region", { name: ACCOUNT_TEXT.pausedNoticeTitle })).toBeNull());
    expect(sent("account.pause")).toEqual([{ paused: false }]);
    expect(await screen.findByText(ACCOUNT_TEXT.resumedToast)).toBeTruthy();
  });

  it("not paused: no notice", async () => {
    startHome();
    await prompt("Most likely to start a company");
    expect(screen.queryByRole("region", { name: ACCOUNT_TEXT.pausedNoticeTitle })).toBeNull();
  });
});

describe("home: offers after the first vote", { timeout: 20_000 }, () => {
  it("offers notifications only after a vote, and 'Not now' keeps the offer away for a week", async () => {
    fakePushDevice();
    const first = startHome({ rounds: [nthRound(0), nthRound(1), nthRound(2)] });
    await prompt("Most likely to start a company");
    expect(screen.queryByRole("region", { name: OFFER_TEXT.afterVoteTitle })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Vote for Zoe" }));
    expect(await screen.findByText(TOASTS.voteSent)).toBeTruthy();
    const push = await offer(OFFER_TEXT.afterVoteTitle);
    await userEvent.click(within(push).getByRole("button", { name: OFFER_TEXT.notNow }));
    await waitFor(() => expect(screen.queryByRole("region", { name: OFFER_TEXT.afterVoteTitle })).toBeNull());
    expect(saidNotNow("push")).toBe(true);
    first.unmount();

    // Another visit within the week: a vote brings no offer.
    startHome({ rounds: [nthRound(0), nthRound(1), nthRound(2)] });
    await prompt("Most likely to start a company");
    await userEvent.click(screen.getByRole("button", { name: "Vote for Zoe" }));
    await prompt("Best person to study with");
    expect(screen.queryByRole("region", { name: OFFER_TEXT.afterVoteTitle })).toBeNull();
  });

  it("counts the week from the 'Not now'", () => {
    const at = Date.parse("2026-11-20T12:00:00Z");
    rememberNotNow("install", at);
    expect(saidNotNow("install", at + NOT_NOW_MS - 1)).toBe(true);
    expect(saidNotNow("install", at + NOT_NOW_MS)).toBe(false);
    expect(saidNotNow("push", at)).toBe(false);
  });

  it("offers to install where the browser fired beforeinstallprompt, and shows the browser's dialog on the tap", async () => {
    captureInstallPrompt();
    rememberNotNow("push");
    const prompted = vi.fn(() => Promise.resolve());
    const event = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
      prompt: prompted,
      userChoice: Promise.resolve({ outcome: "accepted" as const }),
    });
    act(() => void window.dispatchEvent(event));
    expect(event.defaultPrevented).toBe(true);

    startHome({ rounds: [nthRound(0), nthRound(1)] });
    await prompt("Most likely to start a company");
    await userEvent.click(screen.getByRole("button", { name: "Vote for Zoe" }));
    const install = await offer(OFFER_TEXT.installTitle);
    await userEvent.click(within(install).getByRole("button", { name: OFFER_TEXT.install }));
    expect(prompted).toHaveBeenCalledOnce();
    await waitFor(() => expect(screen.queryByRole("region", { name: OFFER_TEXT.installTitle })).toBeNull());
  });

  it("on iOS Safari, shows the Add to Home Screen steps after a vote", async () => {
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue(
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
    );
    startHome({ rounds: [nthRound(0), nthRound(1)] });
    await prompt("Most likely to start a company");
    await userEvent.click(screen.getByRole("button", { name: "Vote for Zoe" }));
    const steps = await offer(OFFER_TEXT.iosStepsTitle);
    for (const step of OFFER_TEXT.iosSteps) expect(within(steps).getByText(step)).toBeTruthy();
    await userEvent.click(within(steps).getByRole("button", { name: OFFER_TEXT.notNow }));
    expect(saidNotNow("install")).toBe(true);
    vi.restoreAllMocks();
  });
});
