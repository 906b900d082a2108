import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Finds the built SPA: WEB_DIST_DIR when set, else apps/web/dist seen from
 * this module, whether it runs from src/ (tsx) or from the dist/bin bundle.
 */
export function findWebDist(configured: string | undefined): string | undefined {
  if (configured) return path.resolve(configured);
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, "../../web/dist"), path.resolve(here, "../../../web/dist")];
  return candidates.find((dir) => existsSync(path.join(dir, "index.html")));
}
