import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@quad/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleServer } from "../../bundle.mjs";
import { urlOfTestDatabase } from "../test/postgres";
import { freePort, stopProcess, waitUntilAnswering } from "../test/processes";

/**
 * What docs/operations.md tells a supervisor to run must get the
 * supervisor's SIGTERM itself. Under `pnpm start` pnpm got it, exited at
 * once without passing it on, and the server ran on, unsupervised and
 * holding its port (decision 0033). The systemd unit runs node on the bundle:
 * checked as written, then run as written (the bundle built here) and
 * stopped the way a supervisor stops its main process.
 */
const repoDir = fileURLToPath(new URL("../../../..", import.meta.url));
const serverDir = path.join(repoDir, "apps/server");
const operations = await readFile(path.join(repoDir, "docs/operations.md"), "utf8");
/** Package managers and script runners: each runs the command as a child it does not pass SIGTERM to. */
const WRAPPERS = /\b(pnpm|npm|npx|yarn|tsx|turbo)\b/;

/** A systemd unit that runs the server: the ini block whose Description matches. */
function serverUnit(description = /^Description=Quad server$/m): Map<string, string> {
  const block = [...operations.matchAll(/```ini\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((text) => description.test(text));
  if (!block) throw new Error(`docs/operations.md has no \`\`\`ini block with ${description}`);
  return new Map(
    block
      .split("\n")
      .filter((line) => /^\w+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

describe("the command docs/operations.md gives supervisors", () => {
  const unit = serverUnit();
  const execStart = unit.get("ExecStart") ?? "";

  it("runs node on the server bundle, through no package manager or shell", () => {
    const [program, ...args] = execStart.split(/\s+/);
    expect(execStart).not.toMatch(WRAPPERS);
    expect(path.basename(program ?? "")).toBe("node");
    expect(args).toEqual(["apps/server/dist/bin/server.mjs"]);
    expect(unit.get("KillSignal") ?? "SIGTERM").toBe("SIGTERM");
    // Past the server's own shutdown limit (SHUTDOWN_TIMEOUT_MS, 10 s), before systemd's SIGKILL.
    expect(Number.parseInt(unit.get("TimeoutStopSec") ?? "90", 10)).toBeGreaterThan(10);
  });

  it("names nothing else for a supervisor to run under a wrapper", () => {
    const execLines = [...operations.matchAll(/^ExecStart=(.*)$/gm)].map((m) => m[1]!);
    // The backup is a oneshot systemd stops as a whole (its control group), not a server.
    const servers = execLines.filter((line) => !line.includes("db:backup"));
    expect(new Set(servers)).toEqual(new Set([execStart]));
  });

  it("runs two instances on one host as it runs one, each with its own ports after the shared file", () => {
    const template = serverUnit(/^Description=Quad server, instance %i$/m);
    for (const key of ["ExecStart", "WorkingDirectory", "User", "KillSignal", "TimeoutStopSec", "Restart"])
      expect(template.get(key), key).toBe(unit.get(key));
    // Several EnvironmentFile lines: the Map keeps the last, which must be the instance's own.
    expect(template.get("EnvironmentFile")).toBe("/etc/quad-%i.env");
    expect(operations).toMatch(/^EnvironmentFile=\/etc\/quad\.env\n(#.*\n)*EnvironmentFile=\/etc\/quad-%i\.env$/m);
    expect(operations).toContain(String.raw`printf 'PORT=3001\nMETRICS_PORT=9465\n' > /etc/quad-1.env`);
  });

  describe("run as written", () => {
    const outdir = path.join(serverDir, "node_modules/.cache/supervised-bundle");
    let dataDir: string;
    // A Postgres test database when there is one: a first PGlite start takes a minute on a busy machine.
    const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
    let database: TestDatabase | undefined;
    let databaseUrl = "";

    beforeAll(async () => {
      await bundleServer({ entries: { server: "src/index.ts" }, outdir });
      dataDir = await mkdtemp(path.join(tmpdir(), "quad-supervised-"));
      if (serverUrl) {
        database = await createTestDatabase();
        databaseUrl = await urlOfTestDatabase(database.db, serverUrl);
      }
    }, 120_000);

    afterAll(async () => {
      await database?.close();
      await rm(outdir, { recursive: true, force: true });
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it("exits on the supervisor's SIGTERM to its main process, within the shutdown limit, and leaves nothing running", async () => {
      const [, script] = execStart.split(/\s+/);
      const port = await freePort();
      // The unit's command from its WorkingDirectory (here the repository), with this test's bundle and node.
      const child = spawn(process.execPath, [path.join(outdir, path.relative("apps/server/dist", script!))], {
        cwd: repoDir,
        stdio: "ignore",
        // Its own process group, as systemd gives a service its own control group.
        detached: true,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: "development",
          HOST: "127.0.0.1",
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          SEED_DEMO: "false",
          JOBS_ENABLED: "false",
          SHUTDOWN_TIMEOUT_MS: "5000",
        },
      });
      try {
        await waitUntilAnswering(`http://127.0.0.1:${port}/api/health/live`, child, 150_000);
        const exited = new Promise<number>((resolve) => child.once("exit", () => resolve(performance.now())));
        const signalledAt = performance.now();
        child.kill("SIGTERM");
        const exitedAt = await exited;
        console.log(`SIGTERM to the unit's main process: exited after ${Math.round(exitedAt - signalledAt)} ms`);
        expect(exitedAt - signalledAt).toBeLessThan(5_000);
        // Nothing of it is left: the process group is empty and the port answers nobody.
        expect(() => process.kill(-child.pid!, 0)).toThrow();
        await expect(fetch(`http://127.0.0.1:${port}/api/health/live`)).rejects.toThrow();
      } finally {
        await stopProcess(child);
      }
    }, 180_000);
  });
});
