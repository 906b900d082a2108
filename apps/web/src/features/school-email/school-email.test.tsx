import { SCHOOL_EMAIL_MESSAGES, SCREEN_TEXT } from "@quad/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import {
  inboxAnswers,
  createMeUser,
  createSchool,
  defaultTrpcResolvers,
  inTurn,
  nthRound,
  roundsAnswers,
  server,
  trpcError,
  trpcHandler,
} from "../../test/msw";
import { cachedProfile, renderApp, signInAs } from "../../test/render";

/**
 * /home for a student with a complete profile who has not proved a school
 * address: the round is refused (403), the next one served; the first code
 * sent back is refused as wrong, the second taken.
 */
function startAsNewcomer() {
  const me = createMeUser({ gender: "male", preference: "female", schoolEmailVerified: false, schoolEmail: null });
  const backend = roundsAnswers({
    me,
    rounds: [trpcError("FORBIDDEN", SCHOOL_EMAIL_MESSAGES.verifyToVote), nthRound(0)],
    overrides: {
      "schools.list": () => [createSchool({ id: 1, schoolName: "State University", emailDomains: ["state.edu"] })],
      "schoolEmail.sendCode": () => ({ sent: true, retryAfterSeconds: 30 }),
      "schoolEmail.verify": inTurn(trpcError("BAD_REQUEST", SCHOOL_EMAIL_MESSAGES.invalidCode), {
        ...me,
        schoolEmailVerified: true,
        schoolEmail: "ada@state.edu",
      }),
    },
  });
  const inbox = inboxAnswers();
  server.use(trpcHandler({ ...defaultTrpcResolvers, ...inbox.resolvers, ...backend.resolvers }));
  signInAs(backend.me);
  const view = renderApp("/home");
  return { ...view, sent: backend.sent, inboxSent: inbox.sent, user: userEvent.setup({ pointerEventsCheck: 0 }) };
}

describe("proving a school address", { timeout: 20_000 }, () => {
  it("takes the round's place, hides the inbox, and leads to the first round once proved", async () => {
    const { user, sent, inboxSent } = startAsNewcomer();
    const screenRegion = await screen.findByRole(
      "region",
      { name: SCHOOL_EMAIL_MESSAGES.verifyToVote },
      { timeout: 5000 },
    );
    expect(screen.queryByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou })).toBeNull();
    const form = within(screenRegion);
    const email = form.getByLabelText("School e-mail");
    await waitFor(() => expect(email.getAttribute("placeholder")).toBe("you@state.edu"));

    // Another school's address is refused here, naming the school, and nothing is sent.
    await user.type(email, "ada@city.edu");
    await user.click(form.getByRole("button", { name: "Send code" }));
    expect(await form.findByText(SCHOOL_EMAIL_MESSAGES.notSchool("State University", "state.edu"))).toBeTruthy();
    expect(sent("schoolEmail.sendCode")).toEqual([]);

    // A subdomain the school does not list, an alumni address, a sub-address and a malformed one: each
    // refused here with its reason.
    for (const [typed, message] of [
      ["ada@cs.state.edu", SCHOOL_EMAIL_MESSAGES.notSchool("State University", "state.edu")],
      ["ada@alumni.state.edu", SCHOOL_EMAIL_MESSAGES.alumni("state.edu")],
      ["ada+quad@state.edu", SCHOOL_EMAIL_MESSAGES.plusAddress],
      [".ada@state.edu", SCHOOL_EMAIL_MESSAGES.invalid],
    ]) {
      await user.clear(email);
      await user.type(email, typed!);
      await user.click(form.getByRole("button", { name: "Send code" }));
      expect(await form.findByText(message!)).toBeTruthy();
    }
    expect(sent("schoolEmail.sendCode")).toEqual([]);

    await user.clear(email);
    await user.type(email, " Ada@State.edu ");
    await user.click(form.getByRole("button", { name: "Send code" }));
    await waitFor(() => expect(sent("schoolEmail.sendCode")).toEqual([{ email: "ada@state.edu" }]));
    const code = await form.findByLabelText("Verification code");
    expect(document.activeElement).toBe(code);

    // A resend waits for the server's interval, counted down on the button.
    expect(form.getByRole("button", { name: /^Send a new code in \d+s$/ })).toHaveProperty("disabled", true);

    // A wrong code (its sixth digit sends it): the message shows, and the field empties and takes focus again.
    await user.type(code, "111111");
    expect(await form.findByText(SCHOOL_EMAIL_MESSAGES.invalidCode)).toBeTruthy();
    expect((code as HTMLInputElement).value).toBe("");
    await waitFor(() => expect(document.activeElement).toBe(code));

    await user.type(code, "246810");
    expect(await screen.findByRole("heading", { level: 2, name: /./ }, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("region", { name: SCHOOL_EMAIL_MESSAGES.verifyToVote })).toBeNull());
    expect(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou })).toBeTruthy();
    expect(cachedProfile()).toMatchObject({
      schoolEmailVerified: true,
      schoolEmail: "ada@state.edu",
    });
    expect(sent("schoolEmail.verify")).toEqual([
      { email: "ada@state.edu", code: "111111" },
      { email: "ada@state.edu", code: "246810" },
    ]);
    expect(inboxSent("inbox.received")).toEqual([]);
  });
});
