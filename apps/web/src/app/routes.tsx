import { lazy, type ComponentType } from "react";
import type { RouteObject } from "react-router";
import { LandingPage } from "../pages/landing-page";
import { NotFoundPage } from "../pages/not-found-page";
import { RedirectSignedIn, RequireNotVerified, RequireVerified } from "./guards";

/** React.lazy for a module's named export. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint
function lazyNamed<T extends ComponentType<any>>(load: () => Promise<T>) {
  return lazy(async () => ({ default: await load() }));
}

// Only the landing page is in the first bundle. The data layer (TanStack Query
// + tRPC, via ApiLayout) and every other screen load on demand, so signed-in
// screens (and, later, Firebase, Stripe and the cropper inside them) are
// fetched only by people who reach them.
const ApiLayout = lazyNamed(() => import("./api-layout").then((m) => m.ApiLayout));
const LoginPage = lazyNamed(() => import("../pages/login-page").then((m) => m.LoginPage));
const SignupPage = lazyNamed(() => import("../pages/signup-page").then((m) => m.SignupPage));
const HomePage = lazyNamed(() => {
  // Its first calls go out while its code loads (the data layer is in by now: ApiLayout holds it).
  void import("../lib/data-layer").then((m) => m.prefetchHome());
  return import("../pages/home-page").then((m) => m.HomePage);
});
const TermsPage = lazyNamed(() => import("../pages/terms-page").then((m) => m.TermsPage));
const SettingsPage = lazyNamed(() => import("../pages/settings-page").then((m) => m.SettingsPage));
const AdminPage = lazyNamed(() => import("../pages/admin-page").then((m) => m.AdminPage));

/** The routes of docs/product.md with their gating (see guards.tsx). */
export const routes: RouteObject[] = [
  { element: <RedirectSignedIn />, children: [{ index: true, element: <LandingPage /> }] },
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
      {
        element: <RequireVerified />,
        children: [
          { path: "home", element: <HomePage /> },
          { path: "settings", element: <SettingsPage /> },
        ],
      },
      // Admins only; everyone else (signed out included) gets the 404 page.
      { path: "admin", element: <AdminPage /> },
    ],
  },
  { path: "terms", element: <TermsPage /> },
  { path: "*", element: <NotFoundPage /> },
];
