import { readFileSync, readdirSync } from "node:fs";

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** CPU seconds used so far by the server's processes, by PostgreSQL's and by the bench's own (the load generator). */
export interface CpuSample {
  server: number;
  postgres: number;
  generator: number;
}

interface ProcStat {
  comm: string;
  pgrp: number;
  cpuSeconds: number;
}

function procStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const open = stat.indexOf("(");
      const close = stat.lastIndexOf(")");
      // After "pid (comm) ": state, ppid, pgrp, … utime and stime are the 12th and 13th.
      const fields = stat.slice(close + 2).split(" ");
      stats.push({
        comm: stat.slice(open + 1, close),
        pgrp: Number(fields[2]),
        cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S,
      });
    } catch {
      // the process ended meanwhile
    }
  }
  return stats;
}

/**
 * CPU time of the processes in the server's process group (the bench starts
 * it detached, so `pnpm start` and the node it runs form one group) and of
 * every PostgreSQL process, background workers included (a write's WAL
 * and vacuum are part of what it costs), and of the bench's own process,
 * where the load generator runs (autocannon, or the paced sender): on the
 * two shared cores its CPU is taken from the server and Postgres. Read from
 * /proc: CPU per request does not depend on how busy the machine is the way
 * requests/s does.
 */
export function sampleCpu(serverGroup: number): CpuSample {
  let server = 0;
  let postgres = 0;
  for (const p of procStats()) {
    if (p.pgrp === serverGroup) server += p.cpuSeconds;
    else if (p.comm === "postgres") postgres += p.cpuSeconds;
  }
  const own = process.cpuUsage();
  return { server, postgres, generator: (own.user + own.system) / 1e6 };
}
