import type { RouteObject } from "react-router";
import { ApiLayout } from "../../app/api-layout";
import { RedirectSignedIn, RequireNotVerified, RequireVerified } from "../../app/guards";
import { LoginPage } from "../../pages/login-page";
import { SignupPage } from "../../pages/signup-page";

/**
 * The auth routes with the app's real gating and data layer, and stand-ins
 * for the landing and home screens (other features, tested on their own).
 */
export const authTestRoutes: RouteObject[] = [
  { element: <RedirectSignedIn />, children: [{ index: true, element: <h1>Landing</h1> }] },
  {
    element: <ApiLayout />,
    children: [
      {
        element: <RequireNotVerified />,
        children: [
          { path: "login", element: <LoginPage /> },
          { path: "signup", element: <SignupPage /> },
          { path: "opt-in", element: <SignupPage startAt="phone" /> },
        ],
      },
      { element: <RequireVerified />, children: [{ path: "home", element: <h1>Home</h1> }] },
    ],
  },
];
