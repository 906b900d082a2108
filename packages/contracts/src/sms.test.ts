import { describe, expect, it } from "vitest";
import { SMS_OPT_OUT_KEYWORDS } from "./constants";
import { routes } from "./routes";
import { SetSmsInput, SMS_REPLIES, SmsSettings, voteNoticeText } from "./sms";

describe("voteNoticeText", () => {
  it("counts the votes, links home and says how to opt out", () => {
    expect(voteNoticeText(3, "https://quad.example/home")).toBe(
      "You got 3 new votes on Quad! See who voted for you: https://quad.example/home Reply STOP to opt out.",
    );
    expect(voteNoticeText(1, "https://quad.example/home")).toContain("You got 1 new vote on Quad!");
  });

  it("fits one long SMS segment", () => {
    expect(voteNoticeText(99_999, "https://quad.example/home").length).toBeLessThanOrEqual(160);
  });
});

describe("SMS_REPLIES", () => {
  it("help and both confirmations name the opt-out or opt-in word", () => {
    expect(SMS_REPLIES.help).toContain(SMS_OPT_OUT_KEYWORDS[0]);
    expect(SMS_REPLIES.optedIn).toContain("STOP");
    expect(SMS_REPLIES.optedOut).toContain("START");
  });
});

describe("SMS settings contracts", () => {
  it("accepts only {enabled: boolean}", () => {
    expect(SetSmsInput.parse({ enabled: false })).toEqual({ enabled: false });
    expect(SetSmsInput.safeParse({ enabled: "yes" }).success).toBe(false);
    expect(SetSmsInput.safeParse({ enabled: true, phone: "+15555550123" }).success).toBe(false);
    expect(SmsSettings.parse({ enabled: true, optedOutBySms: false, updatedAt: null })).toBeTruthy();
  });

  it("are routes that need a session", () => {
    expect(routes["users.smsSettings"]).toMatchObject({ method: "GET", path: "/users/sms-settings", auth: true });
    expect(routes["users.setSms"]).toMatchObject({ method: "PUT", path: "/users/sms-settings", auth: true });
  });
});
