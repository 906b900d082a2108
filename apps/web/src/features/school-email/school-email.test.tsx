import { SCHOOL_EMAIL_MESSAGES, SCREEN_TEXT } from "@quad/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { useSessionStore } from "../../lib/session-store";
import {
  inboxAnswers,
  createMeUser,
  createRoundsServer,
  createSchool,
  defaultTrpcResolvers,
  server,
  trpcError,
  trpcHandler,
} from "../../test/msw";
import { renderApp, signIn } from "../../test/render";

const CODE = "246810";

/** /home for a student with a complete profile who has not proved a school address, against an in-memory server. */
function startAsNewcomer() {
  const user = createMeUser({ gender: "male", preference: "female", schoolEmailVerified: false, schoolEmail: null });
  const rounds = createRoundsServer({ user });
  const calls = { sent: [] as string[], inbox: 0 };
  const inbox = inboxAnswers().resolvers;
  server.use(
    trpcHandler({
      ...defaultTrpcResolvers,
      ...inbox,
      ...rounds.resolvers,
      "schools.list": () => [createSchool({ id: 1, schoolName: "State University", emailDomains: ["state.edu"] })],
      "votes.forUser": (call) => {
        calls.inbox++;
        return inbox["votes.forUser"]!(call);
      },
      "prompts.random": (call) =>
        rounds.state.user.schoolEmailVerified
          ? rounds.resolvers["prompts.random"]!(call)
          : trpcError("FORBIDDEN", SCHOOL_EMAIL_MESSAGES.verifyToVote),
      "schoolEmail.sendCode": ({ input }) => {
        calls.sent.push((input as { email: string }).email);
        return { sent: true, retryAfterSeconds: 30 };
      },
      "schoolEmail.verify": ({ input }) => {
        const { email, code } = input as { email: string; code: string };
        if (code !== CODE) return trpcError("BAD_REQUEST", SCHOOL_EMAIL_MESSAGES.invalidCode);
        rounds.state.user = { ...rounds.state.user, schoolEmailVerified: true, schoolEmail: email };
        return rounds.state.user;
      },
    }),
  );
  signIn("verified");
  useSessionStore.getState().setUser(user);
  const view = renderApp("/home");
  return { ...view, calls, rounds, user: userEvent.setup({ pointerEventsCheck: 0 }) };
}

describe("proving a school address", { timeout: 20_000 }, () => {
  it("takes the round's place, hides the inbox, and leads to the first round once proved", async () => {
    const { user, calls } = await startAsNewcomer();
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
    expect(calls.sent).toEqual([]);

    await user.clear(email);
    await user.type(email, " Ada@CS.State.edu ");
    await user.click(form.getByRole("button", { name: "Send code" }));
    await waitFor(() => expect(calls.sent).toEqual(["ada@cs.state.edu"]));
    const code = await form.findByLabelText("Verification code");
    expect(document.activeElement).toBe(code);

    // A wrong code: the message shows and the field empties for the right one.
    await user.type(code, "111111");
    await user.click(form.getByRole("button", { name: "Verify e-mail" }));
    expect(await form.findByText(SCHOOL_EMAIL_MESSAGES.invalidCode)).toBeTruthy();
    expect((code as HTMLInputElement).value).toBe("");

    await user.type(code, CODE);
    await user.click(form.getByRole("button", { name: "Verify e-mail" }));
    expect(await screen.findByRole("heading", { level: 2, name: /./ }, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("region", { name: SCHOOL_EMAIL_MESSAGES.verifyToVote })).toBeNull());
    expect(screen.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou })).toBeTruthy();
    expect(useSessionStore.getState().user).toMatchObject({
      schoolEmailVerified: true,
      schoolEmail: "ada@cs.state.edu",
    });
    expect(calls.inbox).toBe(0);
  });
});
