import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** A stand-in for the built web app (a shell and one hashed asset), in a temporary folder. */
export async function createTestWebDist(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), "quad-web-"));
  await mkdir(path.join(dir, "assets"));
  await writeFile(path.join(dir, "index.html"), "<!doctype html><title>Quad</title><div id=root></div>");
  await writeFile(path.join(dir, "assets", "app-abc123.js"), "console.log('quad')");
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
