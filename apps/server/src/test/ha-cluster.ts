import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { postgresBinDir } from "./throwaway-postgres";

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, "../../../../deploy/ha/local-cluster.sh");
export const HA_PACKAGES = "apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli";

export type HaNode = "node1" | "node2";

/** The pg_auto_failover cluster of deploy/ha/local-cluster.sh: a monitor, a primary and its synchronous standby. */
export interface HaCluster {
  /** The app's DATABASE_URL: both nodes, writes to the primary only. */
  url: string;
  /** One node's own URL, whatever its role. */
  nodeUrl(node: HaNode): string;
  /** The node taking writes now, if any. */
  primary(): Promise<HaNode | undefined>;
  /** SIGKILL the node's keeper, Postgres and backends at once. */
  kill(node: HaNode): Promise<void>;
  /** Start a stopped node's keeper: it rejoins as the standby. */
  start(node: HaNode): Promise<void>;
  /** Resolves once there is a primary and a secondary again. */
  healthy(timeoutS?: number): Promise<void>;
  /** pg_autoctl perform switchover; resolves when it has finished. */
  switchover(): Promise<void>;
  destroy(): Promise<void>;
}

/** Why the cluster cannot run here, or undefined when it can. */
export function haUnavailableReason(): string | undefined {
  const binDir = postgresBinDir();
  if (!binDir) return "no Postgres server binaries (initdb, pg_ctl)";
  if (spawnSync("pg_autoctl", ["--version"]).status !== 0) return `no pg_autoctl (${HA_PACKAGES})`;
  const share = spawnSync(path.join(binDir, "pg_config"), ["--sharedir"], { encoding: "utf8" }).stdout?.trim();
  if (!share || !existsSync(path.join(share, "extension", "pgautofailover.control")))
    return `no pgautofailover extension for ${binDir} (${HA_PACKAGES})`;
  return undefined;
}

export async function startHaCluster(): Promise<HaCluster> {
  const parent = await mkdtemp(path.join(tmpdir(), "quad-ha-"));
  // The nodes run as the postgres user when this is root: it must reach the cluster's directory.
  await chmod(parent, 0o755);
  const dir = path.join(parent, "cluster");
  const script = async (...args: string[]) =>
    (await run(SCRIPT, args, { encoding: "utf8", timeout: 180_000 })).stdout.trim();
  const destroy = async () => {
    await script("down", dir).catch(() => {});
    await rm(parent, { recursive: true, force: true });
  };
  try {
    const url = (await script("up", dir)).split("\n").at(-1)!;
    const ports = Object.fromEntries(
      (await script("state", dir)).split("\n").map((line) => line.split(" ").slice(0, 2) as [HaNode, string]),
    );
    return {
      url,
      nodeUrl: (node) => `postgres://postgres@127.0.0.1:${ports[node]}/quad`,
      primary: async () => ((await script("primary", dir)) as HaNode) || undefined,
      kill: async (node) => void (await script("kill", node, dir)),
      start: async (node) => void (await script("start", node, dir)),
      healthy: async (timeoutS = 120) => void (await script("wait", dir, String(timeoutS))),
      switchover: async () => void (await script("switchover", dir)),
      destroy,
    };
  } catch (error) {
    await destroy();
    throw error;
  }
}
