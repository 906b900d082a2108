import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { inTurn } from "../../test/msw";
import { openSettings, section } from "../settings/test-support";
import { SAFETY_TEXT } from "./texts";

describe("settings: blocked students", { timeout: 20_000 }, () => {
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
    expect(await screen.findByText(SAFETY_TEXT.unblocked("Sam"))).toBeTruthy();
  });

  it("says so when nobody is blocked", async () => {
    await openSettings();
    expect(await section("Blocked students").findByText(SAFETY_TEXT.noBlocks)).toBeTruthy();
  });
});
