import { ERROR_MESSAGES } from "@quad/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useSessionStore } from "../../lib/session-store";
import { trpcError } from "../../test/msw";
import { cachedProfile } from "../../test/render";
import { openSettings, section } from "../settings/test-support";
import { ACCOUNT_TEXT } from "./texts";

afterEach(() => vi.restoreAllMocks());

describe("settings: privacy", { timeout: 20_000 }, () => {
  it("pauses and resumes the profile, and opts in to the landing preview", async () => {
    const { user, sent } = await openSettings();
    const privacy = section("Privacy");
    await user.click(privacy.getByRole("switch", { name: ACCOUNT_TEXT.pauseTitle }));
    await waitFor(() => expect(sent("account.pause")).toEqual([{ paused: true }]));
    expect(await screen.findByText(ACCOUNT_TEXT.pausedToast)).toBeTruthy();
    expect(cachedProfile()?.paused).toBe(true);

    const preview = privacy.getByRole("switch", { name: ACCOUNT_TEXT.previewTitle });
    expect(preview).toHaveProperty("checked", false);
    await user.click(preview);
    await waitFor(() => expect(preview).toHaveProperty("checked", true));
    expect(sent("account.preview")).toEqual([{ showInPreview: true }]);
  });

  it("a profile held for review cannot be unpaused here and says why", async () => {
    await openSettings({ me: { paused: true, heldForReview: true } });
    const privacy = section("Privacy");
    const pause = privacy.getByRole("switch", { name: ACCOUNT_TEXT.pauseTitle });
    expect(pause).toHaveProperty("checked", true);
    expect(pause).toHaveProperty("disabled", true);
    expect(privacy.getByText(ERROR_MESSAGES.heldForReview)).toBeTruthy();
  });

  it("a pause the server refuses (403) shows its message and leaves the switch as it was", async () => {
    const { user } = await openSettings({
      overrides: { "account.pause": () => trpcError("FORBIDDEN", ERROR_MESSAGES.heldForReview) },
    });
    const pause = section("Privacy").getByRole("switch", { name: ACCOUNT_TEXT.pauseTitle });
    await user.click(pause);
    expect(await screen.findByText(ERROR_MESSAGES.heldForReview)).toBeTruthy();
    await waitFor(() => expect(pause).toHaveProperty("checked", false));
    expect(cachedProfile()?.paused).toBe(false);
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
    await user.type(dialog.getByLabelText(ACCOUNT_TEXT.deleteConfirmLabel), "delete");
    expect(confirm).toHaveProperty("disabled", true);
    await user.clear(dialog.getByLabelText(ACCOUNT_TEXT.deleteConfirmLabel));
    await user.type(dialog.getByLabelText(ACCOUNT_TEXT.deleteConfirmLabel), "DELETE");
    await user.click(confirm);

    await waitFor(() => expect(location.pathname).toBe("/login"));
    expect(sent("account.delete")).toEqual([{ confirm: "DELETE" }]);
    expect(useSessionStore.getState().token).toBeNull();
    expect(await screen.findByText(ACCOUNT_TEXT.deleted)).toBeTruthy();
  });
});
