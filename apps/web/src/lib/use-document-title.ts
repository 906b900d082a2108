import { useEffect } from "react";

export const APP_NAME = "Quad";

/** Sets the tab title to "<title> · Quad" (just "Quad" without a title). */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
