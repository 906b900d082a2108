import { MAX_EMOJIS, VALIDATION } from "@quad/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { cachedProfile } from "../../test/render";
import { openSettings, section } from "../settings/test-support";
import { USERS_TEXT } from "./texts";

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
    expect(await screen.findByText(USERS_TEXT.profileSaved)).toBeTruthy();
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

describe("settings: notifications", { timeout: 20_000 }, () => {
  it("turns vote texts off and on", async () => {
    const { user, sent } = await openSettings({ sms: { enabled: true } });
    const sms = await section("Notifications").findByRole("switch", { name: "Text me when I get votes" });
    expect(sms).toHaveProperty("checked", true);
    await user.click(sms);
    await waitFor(() => expect(sent("users.setSms")).toEqual([{ enabled: false }]));
    await waitFor(() => expect(sms).toHaveProperty("checked", false));
    expect(section("Notifications").getByText(USERS_TEXT.smsOff)).toBeTruthy();
  });

  it("explains that a number that replied STOP must text START", async () => {
    await openSettings({ sms: { enabled: false, optedOutBySms: true } });
    expect(await section("Notifications").findByText(USERS_TEXT.smsOptedOut)).toBeTruthy();
  });
});
