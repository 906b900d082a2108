import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation, useRoutes, type RouteObject } from "react-router";
import { LoadingScreen } from "../components";
import { OfflineBanner } from "../components/offline-banner";
import { RouteErrorBoundary } from "./route-error-boundary";
import { routes as appRoutes } from "./routes";
import { ScrollToTop } from "./scroll-to-top";

// react-toastify is not needed to draw the first screen: its container loads
// once the browser is idle (toasts raised earlier wait in its queue).
const Toaster = lazy(() => import("./toaster").then((m) => ({ default: m.Toaster })));

function useBrowserIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const done = () => setIdle(true);
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(done, { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(done, 200);
    return () => window.clearTimeout(id);
  }, []);
  return idle;
}

export interface AppProps {
  /** The route table; tests may extend it. */
  routes?: RouteObject[];
}

/** The app inside a router (<BrowserRouter> in main.tsx, <MemoryRouter> in tests). */
export function App({ routes = appRoutes }: AppProps) {
  const element = useRoutes(routes);
  const { pathname } = useLocation();
  const idle = useBrowserIdle();

  return (
    <>
      <OfflineBanner />
      <RouteErrorBoundary resetKey={pathname}>
        <Suspense fallback={<LoadingScreen />}>{element}</Suspense>
      </RouteErrorBoundary>
      <ScrollToTop />
      {idle && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </>
  );
}
