import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router";
import { LandingPage } from "./pages/landing-page";

/** Where the session store persists the session; the built page's head script checks it. */
export { SESSION_STORAGE_KEY } from "@quad/contracts";

/**
 * The landing page as static HTML, written into the built index.html at
 * build time (scripts/prerender.mjs): a visitor on a slow phone sees the
 * page at first paint instead of after the JavaScript has arrived, and
 * the app then renders the same markup over it.
 */
export function renderLandingPage(): string {
  return renderToString(
    <StaticRouter location="/">
      <LandingPage />
    </StaticRouter>,
  );
}
