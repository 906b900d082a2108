import { PUSH_DEVICES_PER_STUDENT } from "@quad/contracts";
import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { TermsPage } from "./terms-page";

const section = (name: string) => within(screen.getByRole("region", { name }));

describe("the privacy policy", () => {
  it("says a vote arrives within the hour, in no order of when it was cast", () => {
    render(
      <MemoryRouter>
        <TermsPage />
      </MemoryRouter>,
    );
    expect(
      screen.getByText(/reaches the person within the hour, at a random moment, in no order of when/),
    ).toBeTruthy();
  });

  it("says what push notifications keep, for how long, and how to remove a device", () => {
    render(
      <MemoryRouter>
        <TermsPage />
      </MemoryRouter>,
    );
    const push = section("Push notifications");
    expect(push.getByText(/gives us an address at its push service/)).toBeTruthy();
    expect(push.getByText(new RegExp(`at most ${PUSH_DEVICES_PER_STUDENT} devices`))).toBeTruthy();
    expect(push.getByText(/turn push off for it in Settings/)).toBeTruthy();
    expect(push.getByText(/kept for 30 days/)).toBeTruthy();
  });

  it("says what the school e-mail step keeps, for how long, and that deleting the account removes it", () => {
    render(
      <MemoryRouter>
        <TermsPage />
      </MemoryRouter>,
    );
    const email = section("Your school e-mail address");
    expect(email.getByText(/only you see it/)).toBeTruthy();
    expect(email.getByText(/removed when you delete your account/)).toBeTruthy();
    expect(email.getByText(/expire after 10 minutes/)).toBeTruthy();
    expect(email.getByText(/kept for 30 days/)).toBeTruthy();
    // The list of private data names the push subscriptions too.
    expect(screen.getByText("Notification settings and push subscriptions")).toBeTruthy();
  });

  it("says that an unreviewed Under 18 report outlives the account it is about, for how long and in what form", () => {
    render(
      <MemoryRouter>
        <TermsPage />
      </MemoryRouter>,
    );
    const retention = section("Keeping and deleting data");
    expect(retention.getByText(/someone under 18 that our moderators have not yet reviewed is kept/)).toBeTruthy();
    expect(retention.getByText(/for a year, with a scrambled form of its phone number/)).toBeTruthy();
  });
});
