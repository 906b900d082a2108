import { ERROR_MESSAGES, MAX_EMOJIS, VALIDATION } from "@quad/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useSessionStore } from "../../lib/session-store";
import { accountAnswers, inTurn, server, trpcError, type AccountAnswersOptions } from "../../test/msw";
import { cachedProfile, renderApp, signInAs } from "../../test/render";
import { SETTINGS_COPY } from "./copy";

/** /settings for a signed-in student whose cached profile is the one users.me answers. */
async function openSettings(options: AccountAnswersOptions = {}) {
  const answers = accountAnswers(options);
  server.use(...answers.handlers);
  signInAs(answers.me);
  const user = userEvent.setup({ pointerEventsCheck: 0 });
  const view = renderApp("/settings");
  // The first visit compiles the lazy screen: allow for a busy machine.
  await screen.findByRole("heading", { level: 1, name: SETTINGS_COPY.title }, { timeout: 5_000 });
  return { ...view, user, sent: answers.sent };
}

const section = (name: string) => within(screen.getByRole("region", { name }));

afterEach(() => vi.restoreAllMocks());

describe("settings: profile", { timeout: 20_000 }, () => {
  it("edits name, handle, organizations, interests and emojis, sending only what changed", async () => {
    const { user, sent } = await openSettings({ me: { firstName: "Avery", interests: ["Climbing"] } });
    const profile = section("Profile");
    const save = profile.getByRole("button", { name: "Save profile" });
    expect(save).toHaveProperty("disabled", true);

    const name = profile.getByLabelText("First name");
    await user.clear(name);
    await user.type(name, "Ava");
    await user.type(profile.getByLabelText("Organizations"), "Chess Club{Enter}");
    await user.click(profile.getByRole("button", { name: "Remove Climbing" }));
    await user.click(profile.getByRole("button", { name: "🎸" }));
    await user.click(save);

    await waitFor(() =>
      expect(sent("users.update").at(-1)).toEqual({
        firstName: "Ava",
        organizations: ["Chess Club"],
        interests: [],
        emojis: ["🎸"],
      }),
    );
    expect(await screen.findByText(SETTINGS_COPY.profileSaved)).toBeTruthy();
    expect(cachedProfile()?.firstName).toBe("Ava");
    expect(profile.getByRole("button", { name: "Save profile" })).toHaveProperty("disabled", true);
  });

  it("shows the contracts' messages and sends nothing while a field is invalid", async () => {
    const { user, sent } = await openSettings();
    const profile = section("Profile");
    const name = profile.getByLabelText("First name");
    await user.clear(name);
    await user.type(name, "J");
    const handle = profile.getByLabelText("Instagram");
    await user.clear(handle);
    await user.type(handle, "bad handle!");
    await user.click(profile.getByRole("button", { name: "Save profile" }));

    expect(await profile.findByText(VALIDATION.firstName)).toBeTruthy();
    expect(profile.getByText(VALIDATION.instagramFormat)).toBeTruthy();
    expect(sent("users.update")).toEqual([]);
  });

  it(`allows at most ${MAX_EMOJIS} emojis`, async () => {
    const { user } = await openSettings({ me: { emojis: [] } });
    const profile = section("Profile");
    for (const emoji of ["🔥", "✨", "😎"]) await user.click(profile.getByRole("button", { name: emoji }));
    expect(profile.getByText(`${MAX_EMOJIS}/${MAX_EMOJIS}`)).toBeTruthy();
    expect(profile.getByRole("button", { name: "🎸" })).toHaveProperty("disabled", true);
    await user.click(profile.getByRole("button", { name: "🔥" }));
    expect(profile.getByRole("button", { name: "🎸" })).toHaveProperty("disabled", false);
  });

  it("changes the photo through the cropper dialog", async () => {
    const { user } = await openSettings();
    await user.click(section("Profile").getByRole("button", { name: "Change photo" }));
    const dialog = within(await screen.findByRole("dialog", { name: "Change photo" }));
    // Saving needs a previewed crop, as at sign-up.
    expect(dialog.getByRole("button", { name: "Save photo" })).toHaveProperty("disabled", true);
  });
});

describe("settings: notifications, privacy, blocks", { timeout: 20_000 }, () => {
  it("turns vote texts off and on", async () => {
    const { user, sent } = await openSettings({ sms: { enabled: true } });
    const sms = await section("Notifications").findByRole("switch", { name: "Text me when I get votes" });
    expect(sms).toHaveProperty("checked", true);
    await user.click(sms);
    await waitFor(() => expect(sent("users.setSms")).toEqual([{ enabled: false }]));
    await waitFor(() => expect(sms).toHaveProperty("checked", false));
    expect(section("Notifications").getByText(SETTINGS_COPY.smsOff)).toBeTruthy();
  });

  it("explains that a number that replied STOP must text START", async () => {
    await openSettings({ sms: { enabled: false, optedOutBySms: true } });
    expect(await section("Notifications").findByText(SETTINGS_COPY.smsOptedOut)).toBeTruthy();
  });

  it("pauses and resumes the profile, and opts in to the landing preview", async () => {
    const { user, sent } = await openSettings();
    const privacy = section("Privacy");
    await user.click(privacy.getByRole("switch", { name: SETTINGS_COPY.pauseTitle }));
    await waitFor(() => expect(sent("account.pause")).toEqual([{ paused: true }]));
    expect(await screen.findByText(SETTINGS_COPY.pausedToast)).toBeTruthy();
    expect(cachedProfile()?.paused).toBe(true);

    const preview = privacy.getByRole("switch", { name: SETTINGS_COPY.previewTitle });
    expect(preview).toHaveProperty("checked", false);
    await user.click(preview);
    await waitFor(() => expect(preview).toHaveProperty("checked", true));
    expect(sent("account.preview")).toEqual([{ showInPreview: true }]);
  });

  it("a profile held for review cannot be unpaused here and says why", async () => {
    await openSettings({ me: { paused: true, heldForReview: true } });
    const privacy = section("Privacy");
    const pause = privacy.getByRole("switch", { name: SETTINGS_COPY.pauseTitle });
    expect(pause).toHaveProperty("checked", true);
    expect(pause).toHaveProperty("disabled", true);
    expect(privacy.getByText(ERROR_MESSAGES.heldForReview)).toBeTruthy();
  });

  it("a pause the server refuses (403) shows its message and leaves the switch as it was", async () => {
    const { user } = await openSettings({
      overrides: { "account.pause": () => trpcError("FORBIDDEN", ERROR_MESSAGES.heldForReview) },
    });
    const pause = section("Privacy").getByRole("switch", { name: SETTINGS_COPY.pauseTitle });
    await user.click(pause);
    expect(await screen.findByText(ERROR_MESSAGES.heldForReview)).toBeTruthy();
    await waitFor(() => expect(pause).toHaveProperty("checked", false));
    expect(cachedProfile()?.paused).toBe(false);
  });

  it("lists blocked students and unblocks one", async () => {
    const blockedAt = new Date().toISOString();
    const sam = { userId: "11111111-1111-4111-8111-111111111111", firstName: "Sam", photo: null, blockedAt };
    const kim = { userId: "22222222-2222-4222-8222-222222222222", firstName: "Kim", photo: null, blockedAt };
    const { user, sent } = await openSettings({
      overrides: { "safety.blocks": inTurn({ blocked: [sam, kim] }, { blocked: [kim] }) },
    });
    const blocked = section("Blocked students");
    expect(await blocked.findByText("Sam")).toBeTruthy();
    const samItem = blocked.getByText("Sam").closest("li")!;
    await user.click(within(samItem).getByRole("button", { name: "Unblock" }));
    await waitFor(() => expect(blocked.queryByText("Sam")).toBeNull());
    expect(blocked.getByText("Kim")).toBeTruthy();
    expect(sent("safety.unblock")).toEqual([{ userId: sam.userId }]);
    expect(await screen.findByText(SETTINGS_COPY.unblocked("Sam"))).toBeTruthy();
  });

  it("says so when nobody is blocked", async () => {
    await openSettings();
    expect(await section("Blocked students").findByText(SETTINGS_COPY.noBlocks)).toBeTruthy();
  });
});

describe("settings: your data", { timeout: 20_000 }, () => {
  it("downloads everything stored as a JSON file", async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      created.push(blob as Blob);
      return "blob:export";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    const { user } = await openSettings();

    await user.click(section("Your data").getByRole("button", { name: "Export" }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toMatch(/^quad-data-\d{4}-\d{2}-\d{2}\.json$/);
    expect(JSON.parse(await created[0]!.text())).toEqual({ profile: { id: "user-1", firstName: "Avery" } });
  });

  it("deletes the account only after DELETE is typed, then signs out", async () => {
    const { user, sent, location } = await openSettings();
    await user.click(section("Your data").getByRole("button", { name: "Delete" }));
    const dialog = within(await screen.findByRole("dialog", { name: "Delete your account?" }));
    const confirm = dialog.getByRole("button", { name: "Delete my account" });
    expect(confirm).toHaveProperty("disabled", true);
    await user.type(dialog.getByLabelText(SETTINGS_COPY.deleteConfirmLabel), "delete");
    expect(confirm).toHaveProperty("disabled", true);
    await user.clear(dialog.getByLabelText(SETTINGS_COPY.deleteConfirmLabel));
    await user.type(dialog.getByLabelText(SETTINGS_COPY.deleteConfirmLabel), "DELETE");
    await user.click(confirm);

    await waitFor(() => expect(location.pathname).toBe("/login"));
    expect(sent("account.delete")).toEqual([{ confirm: "DELETE" }]);
    expect(useSessionStore.getState().token).toBeNull();
    expect(await screen.findByText(SETTINGS_COPY.deleted)).toBeTruthy();
  });
});
