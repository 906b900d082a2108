import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  LOCKED_NAME_PLACEHOLDER,
  REPORT_REASON_LABELS,
  routes as contractRoutes,
  SCHOOL_EMAIL_MESSAGES,
  SCREEN_TEXT,
  type CandidateOption,
  type Gender,
  type MeUser,
  type SmsSettings,
  type VoteCard,
} from "@quad/contracts";
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ACCOUNT_TEXT } from "../features/account/texts";
import { PUSH_TEXT } from "../features/push/texts";
import { fakePushDevice, VAPID_KEY } from "../test/push-device";
import { SAFETY_TEXT } from "../features/safety/texts";
import { SETTINGS_TEXT } from "../features/settings/texts";
import { USERS_TEXT } from "../features/users/texts";
import {
  createMeUser,
  createVoteCards,
  inboxAnswers,
  nthRound,
  recording,
  revealedVoteCard,
  server,
  TEST_CARDS,
  trpcError,
  trpcHandler,
  votesPage,
  type TrpcResolvers,
} from "../test/msw";
import { fillCard } from "../features/inbox/test-support";
import { renderApp, signInAs } from "../test/render";
import { getDataLayer } from "./data-layer";
import { REST_WRITES, type MutationPath } from "./refresh-after";

/**
 * For every mutation, the screens that show what it changed are fresh
 * afterwards, without a reload. Each scenario drives the whole app (real
 * routes, data layer, refresh-after.ts) against a fake server that keeps
 * state, so a read answers what the last write did; the cache keeps a
 * query fresh for 30 s, so a screen shows the write only if refresh-after.ts
 * refreshed it. Mutations whose screens another test drives name that test.
 */

const VOTER = { name: "Jordan", graduationYear: 2026, instagramHandle: "@jordan.builds", emojis: ["🚀"] };
type Blocked = { userId: string; firstName: string; photo: null; blockedAt: string };

/** The nth round of `gender`, its candidates with ids the contracts accept (a report checks them here first). */
function roundOf(n: number, gender: Gender) {
  const round = nthRound(n, gender);
  const withUuid = (user: CandidateOption, i: number) => ({
    ...user,
    id: `00000000-0000-4000-8000-${String(2 * n + i + (gender === "male" ? 500 : 0)).padStart(12, "0")}`,
  });
  return {
    ...round,
    users: [withUuid(round.users[0], 0), withUuid(round.users[1], 1)] as [CandidateOption, CandidateOption],
  };
}

/** A server with state: the student, their rounds, votes, blocks and SMS setting. */
function statefulServer(start: Partial<MeUser> = {}, news = { newVotes: 0 }) {
  let me = createMeUser({ gender: "male", preference: "female", remainingUnlocks: 1, ...start });
  let sms: SmsSettings = { enabled: true, optedOutBySms: false, updatedAt: null };
  let blocked: Blocked[] = [];
  let votes: VoteCard[] = createVoteCards(2);
  let newVotes = news.newVotes;
  let served = 0;
  let open = roundOf(0, me.preference ?? "female");
  // The open round is answered again until something closes it.
  const nextRound = () => (open = roundOf(++served, me.preference ?? "female"));
  const inbox = inboxAnswers();

  const resolvers: TrpcResolvers = {
    ...inbox.resolvers,
    "users.me": () => me,
    "users.update": ({ input }) => {
      const before = me.preference;
      me = { ...me, ...(input as Partial<MeUser>) };
      if (me.preference !== before) nextRound();
      return { user: me };
    },
    "users.smsSettings": () => sms,
    "users.setSms": ({ input }) => (sms = { ...sms, ...(input as { enabled: boolean }) }),
    "account.pause": ({ input }) => (me = { ...me, ...(input as { paused: boolean }) }),
    "account.preview": ({ input }) => (me = { ...me, ...(input as { showInPreview: boolean }) }),
    "rounds.open": () => open,
    "rounds.skip": () => nextRound(),
    "rounds.vote": () => {
      nextRound();
      return { disabled: false };
    },
    "safety.blocks": () => ({ blocked }),
    "safety.block": ({ input }) => {
      const { userId } = input as { userId: string };
      const name = [...open.users].find((user) => user.id === userId)?.firstName ?? "Someone";
      blocked = [...blocked, { userId, firstName: name, photo: null, blockedAt: new Date().toISOString() }];
      nextRound();
      return { ok: true };
    },
    "safety.unblock": ({ input }) => {
      blocked = blocked.filter((student) => student.userId !== (input as { userId: string }).userId);
      return { ok: true };
    },
    "safety.report": () => {
      nextRound();
      return { ok: true };
    },
    "inbox.received": () => votesPage(votes),
    "inbox.newVotes": () => ({ count: newVotes }),
    "inbox.markOpened": () => ({ count: (newVotes = 0) }),
    "inbox.unlock": ({ input }) => {
      if (me.remainingUnlocks === 0) return trpcError("PAYMENT_REQUIRED", "You have no unlock credits left.");
      const card = votes.find((vote) => vote.id === (input as { userId: string }).userId)!;
      const unlockedUser = revealedVoteCard(card, VOTER);
      votes = votes.map((vote) => (vote.id === card.id ? unlockedUser : vote));
      me = { ...me, remainingUnlocks: me.remainingUnlocks - 1 };
      return { unlockedUser, remainingUnlocks: me.remainingUnlocks };
    },
    "payments.localConfirm": () => {
      // The 3-pack every payment scenario buys.
      me = { ...me, remainingUnlocks: me.remainingUnlocks + 3 };
      return { status: "succeeded", productId: "unlock-3" };
    },
    "schoolEmail.sendCode": () => ({ sent: true, retryAfterSeconds: 30 }),
    "schoolEmail.verify": ({ input }) =>
      (me = { ...me, schoolEmailVerified: true, schoolEmail: (input as { email: string }).email }),
    "push.subscribe": () => ({ subscribed: true }),
    "push.unsubscribe": () => ({ subscribed: false }),
  };
  const recorded = recording(resolvers);
  return { me: () => me, sent: recorded.sent, resolvers: recorded.resolvers, block: (b: Blocked) => blocked.push(b) };
}

type Backend = ReturnType<typeof statefulServer>;

/** Signed in as the server's student, at `path`. */
function openApp(path: string, backend: Backend, config: Record<string, unknown> = {}) {
  server.use(
    trpcHandler({
      ...backend.resolvers,
      "config.public": () => ({
        authProvider: "local" as const,
        firebase: null,
        paymentProvider: "local" as const,
        stripePublishableKey: null,
        vapidPublicKey: null,
        ...config,
      }),
    }),
    http.patch("*/api/users/update", () =>
      HttpResponse.json({ user: { ...backend.me(), profileImage: "/api/media/photos/new-1.jpg" } }),
    ),
  );
  signInAs(backend.me());
  const view = renderApp(path);
  return { ...view, user: userEvent.setup({ pointerEventsCheck: 0 }) };
}

// The first render lazy-loads the data layer and the screen: allow for a cold start.
const heading = (level: number, name: string | RegExp) =>
  screen.findByRole("heading", { level, name }, { timeout: 5_000 });
const section = (name: string) => within(screen.getByRole("region", { name }));
const dialog = async (name: string | RegExp) => within(await screen.findByRole("dialog", { name }));
const goTo = async (user: ReturnType<typeof userEvent.setup>, link: "Settings" | "Home") =>
  user.click(await screen.findByRole("link", { name: link }));

type Scenario = () => Promise<void>;

const SCENARIOS: { [P in MutationPath]: Scenario | { testedIn: string } } = {
  "account.pause": async () => {
    const backend = statefulServer();
    const { user } = openApp("/settings", backend);
    await heading(1, SETTINGS_TEXT.title);
    await user.click(section("Privacy").getByRole("switch", { name: ACCOUNT_TEXT.pauseTitle }));
    await waitFor(() =>
      expect(section("Privacy").getByRole("switch", { name: ACCOUNT_TEXT.pauseTitle })).toHaveProperty("checked", true),
    );
    // Away and back: the profile the screen reads is the paused one.
    await goTo(user, "Home");
    await heading(1, "Hey Avery");
    await goTo(user, "Settings");
    await heading(1, SETTINGS_TEXT.title);
    expect(section("Privacy").getByRole("switch", { name: ACCOUNT_TEXT.pauseTitle })).toHaveProperty("checked", true);
  },

  "account.preview": async () => {
    const backend = statefulServer();
    const { user } = openApp("/settings", backend);
    await heading(1, SETTINGS_TEXT.title);
    const preview = section("Privacy").getByRole("switch", { name: ACCOUNT_TEXT.previewTitle });
    expect(preview).toHaveProperty("checked", false);
    await user.click(preview);
    await waitFor(() => expect(preview).toHaveProperty("checked", true));
  },

  "account.delete": { testedIn: "features/account/account.test.tsx" },
  "admin.restore": { testedIn: "features/admin/admin-page.test.tsx" },
  "admin.removeProfile": { testedIn: "features/admin/admin-page.test.tsx" },
  "admin.removePhoto": { testedIn: "features/admin/admin-page.test.tsx" },
  "auth.sendCode": { testedIn: "features/auth/login/login-form.test.tsx" },
  "auth.verifyCode": { testedIn: "features/auth/login/login-form.test.tsx" },
  "auth.firebase": { testedIn: "features/auth/phone-auth/use-phone-auth.test.tsx" },
  "auth.refresh": { testedIn: "lib/access-token.test.ts" },
  "auth.logout": { testedIn: "app/routes.test.tsx" },

  "inbox.markOpened": async () => {
    const backend = statefulServer({}, { newVotes: 2 });
    const { user } = openApp("/home", backend);
    const entry = await screen.findByRole("button", { name: /^See who voted for you\W+2 new$/ }, { timeout: 5_000 });
    await user.click(entry);
    const list = await dialog(SCREEN_TEXT.votedOnYou);
    await user.click(list.getByRole("button", { name: "Close" }));
    // Opened: the badge is gone without asking the server again.
    await waitFor(() =>
      expect(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).textContent).not.toMatch(/new/),
    );
  },
  "inbox.unlock": async () => {
    const backend = statefulServer({ remainingUnlocks: 1 });
    const { user } = openApp("/home", backend);
    await user.click(await screen.findByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }, { timeout: 5_000 }));
    const list = await dialog(SCREEN_TEXT.votedOnYou);
    expect(await list.findByText("1 unlock left")).toBeTruthy();
    await user.click((await list.findAllByText("View"))[0]!);
    const detail = await dialog(LOCKED_NAME_PLACEHOLDER);
    await user.click(detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }));
    await user.click((await dialog(SCREEN_TEXT.useUnlockCredit)).getByRole("button", { name: "Use 1 unlock" }));
    // The card shows its voter, in the detail and in the list, and the credits left.
    const revealed = await dialog(VOTER.name);
    await user.click(revealed.getByRole("button", { name: "Done" }));
    expect(await list.findByText(VOTER.name)).toBeTruthy();
    expect(list.getByText("0 unlocks left")).toBeTruthy();
  },

  "payments.createPaymentIntent": { testedIn: "features/payments/payments.test.tsx" },
  "payments.flashSale": { testedIn: "lib/refresh-after.test.tsx" },
  "payments.localConfirm": async () => {
    const backend = statefulServer({ remainingUnlocks: 1 });
    const { user } = openApp("/home", backend);
    await user.click(await screen.findByRole("button", { name: "Buy Unlocks" }, { timeout: 5_000 }));
    const packages = await dialog("Buy Unlocks");
    expect(packages.getByText(/You have/).textContent).toBe("You have 1 unlock left.");
    await user.click(packages.getByRole("radio", { name: /3 unlocks/ }));
    await user.click(packages.getByRole("button", { name: "Continue · $7.99" }));
    const checkout = await fillCard(user, TEST_CARDS.success);
    await user.click(checkout.getByRole("button", { name: "Pay $7.99" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(backend.sent("payments.flashSale")).not.toHaveLength(0);
    // The credits bought show wherever credits do.
    await user.click(screen.getByRole("button", { name: "Buy Unlocks" }));
    expect((await dialog("Buy Unlocks")).getByText(/You have/).textContent).toBe("You have 4 unlocks left.");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await user.click(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }));
    expect(await (await dialog(SCREEN_TEXT.votedOnYou)).findByText("4 unlocks left")).toBeTruthy();
  },

  "push.subscribe": async () => {
    const backend = statefulServer();
    const device = fakePushDevice();
    const { user } = openApp("/settings", backend, { vapidPublicKey: VAPID_KEY });
    await heading(1, SETTINGS_TEXT.title);
    const push = await section("Notifications").findByRole("switch", { name: PUSH_TEXT.title });
    await waitFor(() => expect(push).toHaveProperty("checked", false));
    await user.click(push);
    await waitFor(() => expect(push).toHaveProperty("checked", true));
    expect(section("Notifications").getByText(PUSH_TEXT.on)).toBeTruthy();
    expect(backend.sent("push.subscribe")).toEqual([device.input]);
  },

  "push.unsubscribe": async () => {
    const backend = statefulServer();
    const device = fakePushDevice({ subscribed: true });
    const { user } = openApp("/settings", backend, { vapidPublicKey: VAPID_KEY });
    await heading(1, SETTINGS_TEXT.title);
    const push = await section("Notifications").findByRole("switch", { name: PUSH_TEXT.title });
    await waitFor(() => expect(push).toHaveProperty("checked", true));
    await user.click(push);
    await waitFor(() => expect(push).toHaveProperty("checked", false));
    expect(section("Notifications").getByText(PUSH_TEXT.off)).toBeTruthy();
    expect(backend.sent("push.unsubscribe")).toEqual([{ endpoint: device.input.endpoint }]);
  },

  "rounds.skip": async () => {
    const backend = statefulServer();
    const { user } = openApp("/home", backend);
    await heading(2, "Most likely to start a company");
    await user.click(screen.getByRole("button", { name: /^Skip/ }));
    expect(await heading(2, "Best person to study with")).toBeTruthy();
    expect(backend.sent("rounds.open")).toHaveLength(1);
  },

  "rounds.vote": async () => {
    const backend = statefulServer();
    const { user } = openApp("/home", backend);
    await heading(2, "Most likely to start a company");
    await user.click(screen.getByRole("button", { name: "Vote for Maya" }));
    expect(await heading(2, "Best person to study with")).toBeTruthy();
    expect(screen.getByRole("article", { name: "Priya" })).toBeTruthy();
  },

  "safety.block": async () => {
    const backend = statefulServer();
    const { user } = openApp("/home", backend);
    await heading(2, "Most likely to start a company");
    await user.click(
      within(screen.getByRole("article", { name: "Maya" })).getByRole("button", {
        name: SAFETY_TEXT.moreOptions("Maya"),
      }),
    );
    await user.click((await dialog("Maya")).getByRole("button", { name: /^Block Maya/ }));
    await user.click((await dialog(SAFETY_TEXT.blockTitle("Maya"))).getByRole("button", { name: "Block Maya" }));
    // A fresh round replaces the one the block closed, and Settings lists her.
    expect(await heading(2, "Best person to study with")).toBeTruthy();
    expect(screen.queryByRole("article", { name: "Maya" })).toBeNull();
    await goTo(user, "Settings");
    await heading(1, SETTINGS_TEXT.title);
    expect(await section("Blocked students").findByText("Maya")).toBeTruthy();
  },

  "safety.unblock": async () => {
    const backend = statefulServer();
    backend.block({
      userId: "00000000-0000-4000-8000-000000000999",
      firstName: "Sam",
      photo: null,
      blockedAt: new Date().toISOString(),
    });
    const { user } = openApp("/home", backend);
    await heading(2, "Most likely to start a company");
    await goTo(user, "Settings");
    await heading(1, SETTINGS_TEXT.title);
    const blocked = section("Blocked students");
    await user.click(await blocked.findByRole("button", { name: "Unblock" }));
    expect(await blocked.findByText(SAFETY_TEXT.noBlocks)).toBeTruthy();
    // Sam may be drawn again: back home, the round is asked for anew rather than read from the cache.
    await goTo(user, "Home");
    await heading(2, "Most likely to start a company");
    await waitFor(() => expect(backend.sent("rounds.open")).toHaveLength(2));
  },

  "safety.report": async () => {
    const backend = statefulServer();
    const { user } = openApp("/home", backend);
    await heading(2, "Most likely to start a company");
    await user.click(
      within(screen.getByRole("article", { name: "Zoe" })).getByRole("button", {
        name: SAFETY_TEXT.moreOptions("Zoe"),
      }),
    );
    await user.click((await dialog("Zoe")).getByRole("button", { name: /^Report Zoe/ }));
    const report = await dialog("Report Zoe");
    await user.click(report.getByRole("radio", { name: REPORT_REASON_LABELS.fake_profile }));
    await user.click(report.getByRole("button", { name: SAFETY_TEXT.sendReport }));
    expect(await heading(2, "Best person to study with")).toBeTruthy();
  },

  "schoolEmail.sendCode": { testedIn: "features/school-email/school-email.test.tsx" },
  "schoolEmail.verify": async () => {
    const backend = statefulServer({ schoolEmailVerified: false, schoolEmail: null });
    const { user } = openApp("/home", backend);
    const form = within(
      await screen.findByRole("region", { name: SCHOOL_EMAIL_MESSAGES.verifyToVote }, { timeout: 5_000 }),
    );
    await user.type(form.getByLabelText("School e-mail"), "ada@state.edu");
    await user.click(form.getByRole("button", { name: "Send code" }));
    // The sixth digit sends the code.
    await user.type(await form.findByLabelText("Verification code"), "246810");
    // A member now: the round and the inbox show on /home, and Settings shows the address.
    expect(await heading(2, "Most likely to start a company")).toBeTruthy();
    expect(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou })).toBeTruthy();
    await goTo(user, "Settings");
    await heading(1, SETTINGS_TEXT.title);
    expect(section("School e-mail").getByText(/ada@state\.edu/)).toBeTruthy();
  },

  "users.update": async () => {
    const backend = statefulServer();
    const { user } = openApp("/settings", backend);
    await heading(1, SETTINGS_TEXT.title);
    const name = section("Profile").getByLabelText("First name");
    await user.clear(name);
    await user.type(name, "Ava");
    await user.click(section("Profile").getByRole("button", { name: "Save profile" }));
    expect(await screen.findByText(USERS_TEXT.profileSaved)).toBeTruthy();

    // The same write as a multipart upload (the photo; jsdom cannot crop one through the dialog).
    const form = new FormData();
    form.append("profileImage", new File(["photo"], "profile.jpg", { type: "image/jpeg" }));
    await act(() => getDataLayer().restClient.request("/users/update", { method: "PATCH", body: form }));
    await waitFor(() =>
      expect(screen.getByRole("img", { name: "Your profile photo" }).getAttribute("src")).toBe(
        "/api/media/photos/new-1.jpg",
      ),
    );

    // Home greets the new name; the Guys/Girls switch brings a round of the new choice.
    await goTo(user, "Home");
    expect(await heading(1, "Hey Ava")).toBeTruthy();
    await heading(2, "Most likely to start a company");
    await user.click(screen.getByRole("radio", { name: "Guys" }));
    expect(await screen.findByRole("article", { name: "Omar" })).toBeTruthy();
    expect(screen.getByRole("radio", { name: "Guys" })).toHaveProperty("checked", true);
  },

  "users.setSms": async () => {
    const backend = statefulServer();
    const { user } = openApp("/settings", backend);
    await heading(1, SETTINGS_TEXT.title);
    const sms = await section("Notifications").findByRole("switch", { name: "Text me when I get votes" });
    await user.click(sms);
    await waitFor(() => expect(sms).toHaveProperty("checked", false));
    expect(section("Notifications").getByText(USERS_TEXT.smsOff)).toBeTruthy();
  },
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
});

const here = path.dirname(fileURLToPath(import.meta.url));

describe("after each mutation, the screens that show what it changed are fresh", { timeout: 30_000 }, () => {
  const rows = Object.entries(SCENARIOS) as [MutationPath, Scenario | { testedIn: string }][];

  it.each(rows.filter((row): row is [MutationPath, Scenario] => typeof row[1] === "function"))("%s", (_path, run) =>
    run(),
  );

  it.each(rows.filter((row): row is [MutationPath, { testedIn: string }] => typeof row[1] !== "function"))(
    "%s: its screens are driven in %o",
    (mutation, { testedIn }) => {
      const file = path.join(here, "..", testedIn);
      expect(existsSync(file)).toBe(true);
      expect(readFileSync(file, "utf8")).toContain(`"${mutation}"`);
    },
  );
});

describe("REST writes", () => {
  it("are named by the procedure their contracts row serves", () => {
    for (const [route, procedure] of Object.entries(REST_WRITES)) {
      const row = contractRoutes[procedure as keyof typeof contractRoutes] as { method?: string; path?: string };
      expect(`${row.method} ${row.path}`).toBe(route);
    }
  });
});

describe("the round after a vote", { timeout: 30_000 }, () => {
  const slowly = <T,>(answer: T) => new Promise<T>((resolve) => setTimeout(() => resolve(answer), 150));

  /**
   * The server as the live stream makes it look: the vote's state event reaches the page before the
   * vote's answer, and starts a fetch of the open round (`before`: before the vote is stored; `after`:
   * after). Round fetches after the first are slow, so that fetch is still under way when the answer comes.
   */
  function liveServer(eventComes: "before" | "after") {
    const backend = statefulServer();
    const { "rounds.vote": store, "rounds.open": open } = backend.resolvers;
    const fetchStarted = () =>
      waitFor(() => expect(backend.sent("rounds.open").length).toBeGreaterThan(1), { interval: 5 });
    const resolvers: TrpcResolvers = {
      ...backend.resolvers,
      "rounds.open": async (call) => {
        const round = await open!(call);
        return backend.sent("rounds.open").length > 1 ? slowly(round) : round;
      },
      "rounds.vote": async (call) => {
        if (eventComes === "before") {
          void getDataLayer().utils.rounds.open.invalidate();
          await fetchStarted();
        }
        const answer = await store!(call);
        if (eventComes === "after") {
          void getDataLayer().utils.rounds.open.invalidate();
          await fetchStarted();
        }
        return answer;
      },
    };
    return { ...backend, resolvers };
  }

  it.each([
    ["keeps the fetch the vote's live event started, rather than fetching the round again", "after", 2],
    ["fetches the round again when the fetch under way brought the round just voted in", "before", 3],
  ] as const)("%s", async (_name, eventComes, roundFetches) => {
    const backend = liveServer(eventComes);
    const { user } = openApp("/home", backend);
    await heading(2, "Most likely to start a company");
    await user.click(screen.getByRole("button", { name: "Vote for Maya" }));
    expect(await heading(2, "Best person to study with")).toBeTruthy();
    expect(backend.sent("rounds.open")).toHaveLength(roundFetches);
  });
});
