import { SCREEN_TEXT, TOASTS } from "@quad/contracts";
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OFFLINE_VOTE, PICK_VIBRATION_MS } from "./use-voting-round";
import { clearServerCache } from "../../lib/data-layer";
import {
  inboxAnswers,
  NO_CANDIDATES,
  nthRound,
  outOfVotes,
  roundsAnswers,
  server,
  trpcError,
  trpcHandler,
  voteRefusedForCooldown,
  type RoundsAnswersOptions,
} from "../../test/msw";
import { cachedProfile, renderApp, signInAs } from "../../test/render";

/** Signs in a verified student (who sees girls by default) and serves the rounds and vote answers the test states. */
function startHome(options: RoundsAnswersOptions = {}) {
  const backend = roundsAnswers({ ...options, me: { gender: "male", preference: "female", ...options.me } });
  server.use(trpcHandler({ ...inboxAnswers().resolvers, ...backend.resolvers }));
  signInAs(backend.me);
  const view = renderApp("/home");
  return { ...view, backend };
}

/** The next `count` rounds of girls, from the first. */
const girlsRounds = (count: number) => Array.from({ length: count }, (_, n) => nthRound(n));
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

// The first render lazy-loads the data layer and the home page: allow for a cold start.
const prompt = (name: string) => screen.findByRole("heading", { level: 2, name }, { timeout: 5000 });
const skipButton = () => screen.getByRole("button", { name: /^Skip/ });

afterEach(() => window.sessionStorage.clear());

// Each test drives the whole app through several server round trips.
describe("home round", { timeout: 15_000 }, () => {
  it("shows the school, the prompt and two candidate cards", async () => {
    startHome();
    expect(await prompt("Most likely to start a company")).toBeTruthy();
    expect(screen.getByText("State University")).toBeTruthy();
    expect(screen.getByRole("heading", { level: 1, name: "Hey Avery" })).toBeTruthy();

    const maya = screen.getByRole("article", { name: "Maya" });
    expect(within(maya).getByRole("img", { name: "Photo of Maya" })).toBeTruthy();
    expect(within(maya).getByText("Class of 2025")).toBeTruthy();
    expect(within(maya).getByText("Robotics Club")).toBeTruthy();
    expect(within(maya).getByText("+2")).toBeTruthy();
    expect(within(maya).getByText(", Model UN, Jazz Band")).toBeTruthy();
    expect(within(maya).getByRole("list", { name: "Maya's interests" }).textContent).toContain("Climbing");
    expect(within(maya).getByText("Instagram hidden")).toBeTruthy();
    expect(within(maya).getByRole("button", { name: "Vote for Maya" })).toBeTruthy();
    expect(screen.getByRole("article", { name: "Zoe" })).toBeTruthy();

    expect(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Buy Unlocks" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Logout" })).toBeTruthy();
    expect(screen.getByText(SCREEN_TEXT.anonymityNote)).toBeTruthy();
    expect(screen.getByRole("radio", { name: "Girls" })).toHaveProperty("checked", true);
  });

  it("a vote says 'Vote sent 🤩', brings the next round and resets the skips", async () => {
    const { backend } = startHome({ rounds: girlsRounds(3) });
    await prompt("Most likely to start a company");
    await userEvent.click(skipButton());
    await prompt("Best person to study with");
    expect(screen.getByRole("button", { name: "Skip 2 left" })).toBe(skipButton());

    await userEvent.click(screen.getByRole("button", { name: "Vote for Priya" }));
    expect(await screen.findByText(TOASTS.voteSent)).toBeTruthy();
    // The pick shows on its card first ("Voted"), with the round it was made in.
    expect(within(screen.getByRole("article", { name: "Priya" })).getByText("Voted")).toBeTruthy();
    expect(screen.getByRole("heading", { level: 2, name: "Best person to study with" })).toBeTruthy();
    expect(await prompt("Best listener")).toBeTruthy();
    expect(backend.sent("rounds.vote")).toEqual([{ userId: "cand-female-2", promptId: 101, preference: "female" }]);
    expect(screen.getByRole("button", { name: "Skip 3 left" })).toBe(skipButton());
    // Focus continues from the new prompt.
    expect(document.activeElement).toBe(screen.getByRole("heading", { level: 2, name: "Best listener" }));
  });

  it("a pick shows on its card at once and buzzes, before the server answers, while the next round loads", async () => {
    const vibrate = vi.fn(() => true);
    Object.defineProperty(navigator, "vibrate", { value: vibrate, configurable: true });
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const { backend } = startHome({
      rounds: girlsRounds(2),
      overrides: {
        "rounds.vote": async () => {
          await answered;
          return { disabled: false };
        },
      },
    });
    await prompt("Most likely to start a company");
    await userEvent.click(screen.getByRole("button", { name: "Vote for Zoe" }));
    // Shown before any answer: the chosen card says "Voted", the other steps back.
    const zoe = screen.getByRole("article", { name: "Zoe" });
    expect(within(zoe).getByText("Voted")).toBeTruthy();
    expect(zoe.className).toMatch(/chosen/);
    expect(screen.getByRole("article", { name: "Maya" }).className).toMatch(/passed/);
    expect(vibrate).toHaveBeenCalledWith(PICK_VIBRATION_MS);
    expect(backend.sent("rounds.vote")).toHaveLength(1);
    answer();
    expect(await prompt("Best person to study with")).toBeTruthy();
    Reflect.deleteProperty(navigator, "vibrate");
  });

  it("an offline vote says it will be sent when back online, and sends it then", async () => {
    let online = false;
    vi.spyOn(navigator, "onLine", "get").mockImplementation(() => online);
    let failed = 0;
    const { backend } = startHome({ rounds: girlsRounds(2) });
    // Offline, the request never reaches the server; online, it goes on to the canned answers.
    server.use(
      http.post("*/api/trpc/rounds.vote", () => {
        if (online) return undefined;
        failed += 1;
        return HttpResponse.error();
      }),
    );
    await prompt("Most likely to start a company");
    await userEvent.click(screen.getByRole("button", { name: "Vote for Zoe" }));
    expect(await screen.findByText(OFFLINE_VOTE)).toBeTruthy();
    // The pick stays on screen while offline.
    expect(within(screen.getByRole("article", { name: "Zoe" })).getByText("Voted")).toBeTruthy();
    online = true;
    act(() => void window.dispatchEvent(new Event("online")));
    expect(await screen.findByText(TOASTS.voteSent)).toBeTruthy();
    expect(await prompt("Best person to study with")).toBeTruthy();
    expect(failed).toBe(1);
    expect(backend.sent("rounds.vote")).toHaveLength(1);
    vi.restoreAllMocks();
  });

  it("counts skips down, then shows Skip spent with the way to get more, and a tap opens 'Out of Skips'", async () => {
    // After the third skip in a row the server serves its round with skipping disabled.
    const { backend } = startHome({ rounds: [...girlsRounds(3), nthRound(3, "female", true), nthRound(4)] });
    await prompt("Most likely to start a company");
    expect(within(skipButton()).getByText("3 left")).toBeTruthy();

    await userEvent.click(skipButton());
    await prompt("Best person to study with");
    expect(within(skipButton()).getByText("2 left")).toBeTruthy();
    expect(screen.getByText("Skipped. New round: Best person to study with")).toBeTruthy();
    expect(document.activeElement).toBe(skipButton());
    await userEvent.click(skipButton());
    await prompt("Best listener");
    expect(within(skipButton()).getByText("1 left")).toBeTruthy();
    await userEvent.click(skipButton());
    await prompt("Most creative thinker");
    expect(within(skipButton()).getByText("0 left")).toBeTruthy();
    expect(backend.sent("rounds.skip")).toHaveLength(3);

    // Spent, but not dead: the tap explains.
    expect((skipButton() as HTMLButtonElement).disabled).toBe(false);
    expect(skipButton().className).toMatch(/skipSpent/);
    expect(screen.getByText(SCREEN_TEXT.skipHint).id).toBe(skipButton().getAttribute("aria-describedby"));
    await userEvent.click(skipButton());
    const dialog = await screen.findByRole("dialog", { name: SCREEN_TEXT.outOfSkipsTitle });
    expect(within(dialog).getByText(SCREEN_TEXT.outOfSkipsBody)).toBeTruthy();
    // No fourth skip was asked of the server, and the round stays.
    expect(backend.sent("rounds.skip")).toHaveLength(3);
    await userEvent.click(within(dialog).getByRole("button", { name: "Back to voting" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.getByRole("heading", { level: 2, name: "Most creative thinker" })).toBeTruthy();
    // A vote brings the skips back.
    await userEvent.click(screen.getAllByRole("button", { name: /^Vote for/ })[0]!);
    await waitFor(() => expect(within(skipButton()).getByText("3 left")).toBeTruthy());
    expect(screen.queryByText(SCREEN_TEXT.skipHint)).toBeNull();
  });

  it("trusts the server when it refuses a skip", async () => {
    startHome({
      overrides: {
        "rounds.open": () => nthRound(0),
        "rounds.skip": () => trpcError("CONFLICT", SCREEN_TEXT.outOfSkipsBody),
      },
    });
    await prompt("Most likely to start a company");
    await userEvent.click(skipButton());
    expect(await screen.findByRole("dialog", { name: SCREEN_TEXT.outOfSkipsTitle })).toBeTruthy();
    expect(within(skipButton()).getByText("0 left")).toBeTruthy();
    expect(screen.getByRole("heading", { level: 2, name: "Most likely to start a company" })).toBeTruthy();
  });

  it("opens 'Out of Votes' with the time left after the last vote of the batch", async () => {
    const availableAt = minutesFromNow(42);
    startHome({ rounds: [nthRound(0), outOfVotes(availableAt)], votes: [{ disabled: true, availableAt }] });
    await prompt("Most likely to start a company");
    await userEvent.click(screen.getByRole("button", { name: "Vote for Zoe" }));

    const dialog = await screen.findByRole("dialog", { name: SCREEN_TEXT.outOfVotesTitle });
    expect(within(dialog).getByText(SCREEN_TEXT.outOfVotesBody)).toBeTruthy();
    expect(within(dialog).getByText(/^Time left: 4[12] minutes \d+ seconds?$/)).toBeTruthy();
    expect(within(dialog).getByText(/^4[12]m \d\ds$/)).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Got it" }));
    expect(await screen.findByText(TOASTS.voteSent)).toBeTruthy();

    await userEvent.click(within(dialog).getByRole("button", { name: "Got it" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    // The round's place now says when votes come back.
    expect(await screen.findByText(SCREEN_TEXT.outOfVotesTitle)).toBeTruthy();
    expect(screen.getByText(/^Time left: 4[12] minutes/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Skip/ })).toBeNull();
  });

  it("shows the cooldown when the home screen opens out of votes", async () => {
    startHome({ rounds: [outOfVotes(minutesFromNow(15))] });
    expect(await screen.findByText(SCREEN_TEXT.outOfVotesTitle)).toBeTruthy();
    expect(screen.getByText(SCREEN_TEXT.outOfVotesBody)).toBeTruthy();
    expect(screen.getByText(/^Time left: 1[45] minutes/)).toBeTruthy();
  });

  it("on a slow network, opens on 'Out of Votes' this device already saw, not a round skeleton", async () => {
    const first = startHome({ rounds: [outOfVotes(minutesFromNow(15))] });
    expect(await screen.findByText(SCREEN_TEXT.outOfVotesTitle)).toBeTruthy();
    first.unmount();
    clearServerCache();
    // The server now takes for ever to answer: what shows meanwhile is the cooldown it last reported.
    startHome({ overrides: { "rounds.open": () => new Promise(() => {}) } });
    expect(await screen.findByText(SCREEN_TEXT.outOfVotesTitle)).toBeTruthy();
    expect(screen.getByText(/^Time left: 1[45] minutes/)).toBeTruthy();
    expect(screen.queryByRole("article")).toBeNull();
  });

  it("a vote refused for the cooldown opens 'Out of Votes'", async () => {
    startHome({ votes: [voteRefusedForCooldown(20 * 60)] });
    await prompt("Most likely to start a company");
    await userEvent.click(screen.getByRole("button", { name: "Vote for Maya" }));
    const dialog = await screen.findByRole("dialog", { name: SCREEN_TEXT.outOfVotesTitle });
    expect(within(dialog).getByText(/^Time left: (20|19) minutes/)).toBeTruthy();
  });

  it("a failed vote toasts the server's message, or 'Failed to submit vote'", async () => {
    startHome({
      votes: [
        trpcError("CONFLICT", "This round has ended. Load the next one."),
        trpcError("INTERNAL_SERVER_ERROR", ""),
      ],
    });
    await prompt("Most likely to start a company");
    await userEvent.click(screen.getByRole("button", { name: "Vote for Maya" }));
    expect(await screen.findByText("This round has ended. Load the next one.")).toBeTruthy();

    await userEvent.click(await screen.findByRole("button", { name: "Vote for Maya" }));
    expect(await screen.findByText(TOASTS.submitVoteFailed)).toBeTruthy();
  });

  it("shows the empty state when there are no students", async () => {
    startHome({ rounds: [NO_CANDIDATES] });
    expect(await screen.findByText(SCREEN_TEXT.noStudents)).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Skip/ })).toBeNull();
    expect(screen.getByRole("button", { name: "Buy Unlocks" })).toBeTruthy();
  });

  it("the Guys/Girls switch saves the preference and loads a round of the new choice", async () => {
    let save = () => {};
    const saved = new Promise<void>((resolve) => (save = resolve));
    const { backend } = startHome({
      rounds: [NO_CANDIDATES, nthRound(0, "male")],
      me: { preference: null },
      overrides: {
        "users.update": async ({ input }) => {
          await saved;
          return { user: { ...cachedProfile()!, ...(input as { preference: "male" }) } };
        },
      },
    });
    expect(await screen.findByText(SCREEN_TEXT.noStudents)).toBeTruthy();
    // No preference yet: the other gender is shown.
    expect(screen.getByRole("radio", { name: "Girls" })).toHaveProperty("checked", true);

    await userEvent.click(screen.getByRole("radio", { name: "Guys" }));
    // While it saves, nothing in the switch is disabled (a disabled radio drops focus to the page); it says it is busy.
    const group = screen.getByRole("group", { name: "Show me" });
    await waitFor(() => expect(group.getAttribute("aria-busy")).toBe("true"));
    expect(screen.getByRole("radio", { name: "Guys" }).matches(":disabled")).toBe(false);
    save();
    expect(await screen.findByRole("article", { name: "Liam" })).toBeTruthy();
    expect(backend.sent("users.update")).toEqual([{ preference: "male" }]);
    expect(cachedProfile()?.preference).toBe("male");
    expect(screen.getByRole("radio", { name: "Guys" })).toHaveProperty("checked", true);
    // Focus stays on the switch once the new round is in.
    expect(document.activeElement).toBe(screen.getByRole("radio", { name: "Guys" }));
  });

  it("says 'Failed to fetch prompt' when the round cannot be loaded", async () => {
    startHome({ overrides: { "rounds.open": () => trpcError("BAD_REQUEST", "nope") } });
    const retry = await screen.findByRole("button", { name: "Try again" });
    expect(retry.closest("[role=alert]")?.textContent).toContain(TOASTS.fetchPromptFailed);
    await waitFor(() => expect(screen.getAllByText(TOASTS.fetchPromptFailed)).toHaveLength(2));
  });
});
