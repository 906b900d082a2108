import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { chownSync, existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./processes";

/**
 * A Postgres cluster of the test's own (initdb into a temporary directory, a
 * free port), so a test can stop and start it without touching any cluster
 * it shares. Postgres refuses to run as root: under root the cluster belongs
 * to the `postgres` user.
 */
export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** pg_ctl stop with this shutdown mode; resolves once Postgres is down. */
  stop(mode: "immediate" | "fast" | "smart"): void;
  start(): void;
  /** Stops it (immediate) and deletes its directory. */
  destroy(): Promise<void>;
}

/** The directory holding initdb and pg_ctl, or undefined when Postgres' server binaries are not installed. */
export function postgresBinDir(): string | undefined {
  const fromConfig = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const candidates = [
    ...(fromConfig.status === 0 ? [fromConfig.stdout.trim()] : []),
    ...(existsSync("/usr/lib/postgresql")
      ? readdirSync("/usr/lib/postgresql")
          .sort()
          .reverse()
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : []),
  ];
  return candidates.find((dir) => existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl")));
}

export async function startThrowawayPostgres(binDir: string): Promise<ThrowawayPostgres> {
  const dir = await mkdtemp(path.join(tmpdir(), "quad-pg-"));
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const owner = process.getuid?.() === 0 ? postgresUser() : undefined;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const run = (bin: string, args: string[]) => {
    const options: SpawnSyncOptions = { encoding: "utf8", ...(owner ?? {}), timeout: 60_000 };
    const result = spawnSync(path.join(binDir, bin), args, options);
    if (result.status !== 0)
      throw new Error(`${bin} ${args.join(" ")} failed: ${String(result.stderr)}${String(result.stdout)}`);
  };
  run("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () => run("pg_ctl", ["start", "-w", "-D", dataDir, "-l", path.join(dir, "log"), "-o", options]);
  start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop(mode) {
      run("pg_ctl", ["stop", "-w", "-D", dataDir, "-m", mode]);
      running = false;
    },
    start() {
      start();
      running = true;
    },
    async destroy() {
      if (running)
        spawnSync(path.join(binDir, "pg_ctl"), ["stop", "-w", "-D", dataDir, "-m", "immediate"], { ...(owner ?? {}) });
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error("running as root, and there is no postgres user to own a throwaway cluster");
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
