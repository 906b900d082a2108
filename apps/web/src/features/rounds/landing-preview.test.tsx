import { SCREEN_TEXT, TOASTS, type Gender } from "@quad/contracts";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { MemoryRouter, useLocation, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { App } from "../../app/app";
import { RedirectSignedIn } from "../../app/guards";
import { LandingPage } from "../../pages/landing-page";
import { createRound, nthRound, previewHandler, server } from "../../test/msw";

/** The landing and a stand-in /signup that shows where the visitor was sent. */
function SignupProbe() {
  const { pathname, search } = useLocation();
  return <h1>{`signup at ${pathname}${search}`}</h1>;
}

const routes: RouteObject[] = [
  { element: <RedirectSignedIn />, children: [{ index: true, element: <LandingPage /> }] },
  { path: "signup", element: <SignupProbe /> },
];

function renderLanding() {
  return render(
    <MemoryRouter initialEntries={["/"]}>
      <App routes={routes} />
    </MemoryRouter>,
  );
}

async function pick(label: "Guys" | "Girls") {
  const dialog = await screen.findByRole("dialog", { name: SCREEN_TEXT.whoDoYouWantToSee });
  await userEvent.click(within(dialog).getByRole("button", { name: label }));
}

describe("landing preview", { timeout: 15_000 }, () => {
  it("asks who to show, loads a preview round, and a vote leads to sign-up with the preference", async () => {
    const asked: Gender[] = [];
    server.use(previewHandler((gender) => nthRound(0, gender), asked));
    renderLanding();

    const dialog = await screen.findByRole("dialog", { name: SCREEN_TEXT.whoDoYouWantToSee });
    // Focus starts on the first choice.
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Guys" }));
    await pick("Girls");

    // The preview's code loads lazily: allow for a cold start.
    expect(
      await screen.findByRole("heading", { level: 2, name: "Most likely to start a company" }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(asked).toEqual(["female"]);
    expect(screen.getByRole("article", { name: "Maya" })).toBeTruthy();
    expect(screen.getByRole("article", { name: "Zoe" })).toBeTruthy();
    expect(screen.getByText("Class of 2025")).toBeTruthy();
    expect(screen.getByRole("link", { name: SCREEN_TEXT.joinToStartVoting }).getAttribute("href")).toBe(
      "/signup?preference=female",
    );

    await userEvent.click(screen.getByRole("button", { name: "Vote for Maya" }));
    expect(await screen.findByRole("heading", { name: "signup at /signup?preference=female" })).toBeTruthy();
  });

  it("unlocking the blurred Instagram in the preview also leads to sign-up", async () => {
    server.use(previewHandler((gender) => nthRound(0, gender)));
    renderLanding();
    await pick("Guys");
    await userEvent.click(await screen.findByRole("button", { name: "Unlock Liam's Instagram" }));
    expect(await screen.findByRole("heading", { name: "signup at /signup?preference=male" })).toBeTruthy();
  });

  it("switching Guys/Girls loads a preview of the other gender", async () => {
    const asked: Gender[] = [];
    server.use(previewHandler((gender) => nthRound(0, gender), asked));
    renderLanding();
    await pick("Guys");
    expect(await screen.findByRole("article", { name: "Liam" })).toBeTruthy();

    await userEvent.click(screen.getByRole("radio", { name: "Girls" }));
    expect(await screen.findByRole("article", { name: "Maya" })).toBeTruthy();
    expect(asked).toEqual(["male", "female"]);
  });

  it("a dismissed question stays on the page as two buttons", async () => {
    server.use(previewHandler(() => createRound()));
    renderLanding();
    await screen.findByRole("dialog");
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    const status = screen.getByRole("status");
    expect(within(status).getByText(SCREEN_TEXT.whoDoYouWantToSee)).toBeTruthy();
    await userEvent.click(within(status).getByRole("button", { name: "Girls" }));
    expect(await screen.findByRole("article", { name: "Zoe" })).toBeTruthy();
  });

  it("shows the empty state when no school has students to preview", async () => {
    server.use(previewHandler(() => ({ error: "no_candidates", message: SCREEN_TEXT.noStudents })));
    renderLanding();
    await pick("Girls");
    expect(await screen.findByText(SCREEN_TEXT.noStudents)).toBeTruthy();
  });

  it("says 'Failed to load prompt' when the preview cannot be loaded, and can try again", async () => {
    let fail = true;
    server.use(
      previewHandler((gender) =>
        fail
          ? HttpResponse.json({ message: "Too many requests", code: "TOO_MANY_REQUESTS" }, { status: 429 })
          : nthRound(1, gender),
      ),
    );
    renderLanding();
    await pick("Girls");
    // Said in the preview's place (the toast is an alert too).
    const retry = await screen.findByRole("button", { name: "Try again" });
    expect(retry.closest("[role=alert]")?.textContent).toContain(TOASTS.loadPromptFailed);
    // The toast says it too.
    await waitFor(() => expect(screen.getAllByText(TOASTS.loadPromptFailed)).toHaveLength(2));

    fail = false;
    await userEvent.click(retry);
    expect(await screen.findByRole("heading", { level: 2, name: "Best person to study with" })).toBeTruthy();
  });
});
