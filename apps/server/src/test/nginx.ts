import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** Debian's nginx (`apt-get install nginx-light`), or undefined when it is not installed. */
export const nginxBinary = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => spawnSync(p, ["-v"]).status === 0);

/**
 * Runs one of the repository's nginx configurations (`conf`, a path) as an
 * operator installs it, with only `rewrites` applied (upstream addresses,
 * listen ports, certificate paths; each at every place it occurs), in `workDir`. Fails when the file no
 * longer has a text to rewrite, so the test is updated with it.
 */
export async function startNginx(conf: string, rewrites: [string, string][], workDir: string): Promise<ChildProcess> {
  let text = await readFile(conf, "utf8");
  for (const [from, to] of rewrites) {
    if (!text.includes(from)) throw new Error(`${conf} no longer has "${from}": update this test with it`);
    text = text.replaceAll(from, to);
  }
  const confFile = path.join(workDir, "nginx.conf");
  await writeFile(confFile, text);
  return spawn(
    nginxBinary!,
    [
      "-p",
      workDir,
      "-c",
      confFile,
      "-e",
      path.join(workDir, "nginx-error.log"),
      "-g",
      `daemon off; pid ${path.join(workDir, "nginx.pid")};`,
    ],
    { stdio: "ignore" },
  );
}
