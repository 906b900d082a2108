import { useEffect } from "react";
import { useLocation } from "react-router";

/** Each new screen starts at the top (in-page #anchors are left to the browser). */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
