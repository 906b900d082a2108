import { TOASTS } from "@quad/contracts";
import { useQuery } from "@tanstack/react-query";
import { screen, waitFor } from "@testing-library/react";
import { http } from "msw";
import type { RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { toUserMessage } from "../lib/api-error";
import { useSessionStore } from "../lib/session-store";
import { SKIP_AUTH_REDIRECT, trpc } from "../lib/trpc";
import { defaultTrpcResolvers, restError, server, trpcError, trpcHandler } from "../test/msw";
import { renderApp, signIn } from "../test/render";
import { ApiLayout } from "./api-layout";
import { useRestClient } from "./api-provider";
import { routes } from "./routes";

function Outcome({ status, error }: { status: string; error: unknown }) {
  return <p>{status === "error" ? `failed: ${toUserMessage(error, TOASTS.fetchSchoolsFailed)}` : status}</p>;
}

/** A screen that makes one tRPC call, flagged or not. */
function TrpcProbe({ skipAuthRedirect }: { skipAuthRedirect: boolean }) {
  const query = trpc.schools.list.useQuery(undefined, skipAuthRedirect ? SKIP_AUTH_REDIRECT : {});
  return <Outcome status={query.status} error={query.error} />;
}

/** A screen that makes one REST call, flagged or not. */
function RestProbe({ skipAuthRedirect }: { skipAuthRedirect: boolean }) {
  const rest = useRestClient();
  const query = useQuery({
    queryKey: ["rest-probe", skipAuthRedirect],
    queryFn: () => rest.request<unknown>("/users/me", { skipAuthRedirect }),
  });
  return <Outcome status={query.status} error={query.error} />;
}

/** The app's routes plus probe screens under the same data layer (ApiLayout). */
const probeRoutes: RouteObject[] = [
  {
    element: <ApiLayout />,
    children: [
      { path: "/trpc-probe", element: <TrpcProbe skipAuthRedirect={false} /> },
      { path: "/trpc-probe-flagged", element: <TrpcProbe skipAuthRedirect /> },
      { path: "/rest-probe", element: <RestProbe skipAuthRedirect={false} /> },
      { path: "/rest-probe-flagged", element: <RestProbe skipAuthRedirect /> },
    ],
  },
  ...routes,
];

const SESSION_EXPIRED = "Please log in to continue.";

function answer401ToEverything() {
  server.use(
    trpcHandler({ ...defaultTrpcResolvers, "schools.list": () => trpcError("UNAUTHORIZED", SESSION_EXPIRED) }),
    http.get("*/api/users/me", () => restError("UNAUTHORIZED", SESSION_EXPIRED)),
  );
}

describe("global 401 handler", () => {
  it("sends the bearer token from the session", async () => {
    signIn("verified");
    const seen: (string | null)[] = [];
    server.use(
      trpcHandler({
        "schools.list": ({ request }) => {
          seen.push(request.headers.get("authorization"));
          return [];
        },
      }),
    );
    renderApp("/trpc-probe", { routes: probeRoutes });
    expect(await screen.findByText("success")).toBeTruthy();
    expect(seen).toEqual(["Bearer access-token-1"]);
  });

  it.each(["/trpc-probe", "/rest-probe"])("a 401 on %s clears the session and opens /login", async (path) => {
    signIn("verified");
    answer401ToEverything();
    const { location } = renderApp(path, { routes: probeRoutes });

    expect(await screen.findByRole("heading", { level: 1, name: /^log in$/i })).toBeTruthy();
    expect(location.pathname).toBe("/login");
    expect(useSessionStore.getState()).toMatchObject({ token: null, refreshToken: null, verified: false });
    expect(JSON.parse(window.localStorage.getItem("user") ?? "{}")).toMatchObject({
      state: { token: null, verified: false },
    });
  });

  it.each(["/trpc-probe-flagged", "/rest-probe-flagged"])(
    "a 401 on %s (flagged skipAuthRedirect) leaves the session alone",
    async (path) => {
      signIn("verified");
      answer401ToEverything();
      const { location } = renderApp(path, { routes: probeRoutes });

      expect(await screen.findByText(`failed: ${SESSION_EXPIRED}`)).toBeTruthy();
      expect(location.pathname).toBe(path);
      expect(useSessionStore.getState().token).toBe("access-token-1");
      expect(useSessionStore.getState().verified).toBe(true);
    },
  );

  it("other errors do not sign anyone out", async () => {
    signIn("verified");
    server.use(trpcHandler({ "schools.list": () => trpcError("FORBIDDEN", "Not for you") }));
    const { location } = renderApp("/trpc-probe", { routes: probeRoutes });
    expect(await screen.findByText("failed: Not for you")).toBeTruthy();
    await waitFor(() => expect(location.pathname).toBe("/trpc-probe"));
    expect(useSessionStore.getState().token).toBe("access-token-1");
  });
});
