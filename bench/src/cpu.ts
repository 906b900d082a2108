import { existsSync, readFileSync, readdirSync } from "node:fs";

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
export const TICKS_PER_S = 100;

/** CPU seconds used so far by the server's processes, by PostgreSQL's and by the bench's own (the load generator). */
export interface CpuSample {
  server: number;
  postgres: number;
  generator: number;
}

interface ProcStat {
  pid: string;
  comm: string;
  pgrp: number;
  cpuSeconds: number;
}

/** A /proc/<pid>/stat line's fields after "pid (comm) ": state, ppid, pgrp, … (utime is [11]). */
const statFields = (stat: string) => stat.slice(stat.lastIndexOf(")") + 2).split(" ");

function procStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = statFields(stat);
      stats.push({
        pid,
        comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
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
 * A process's time on a CPU to the nanosecond: the first field of each of its
 * threads' schedstat. utime and stime count whole ticks (10 ms), which is 4 %
 * of 250 votes' CPU. Undefined where the kernel keeps no schedstat.
 */
function onCpuSeconds(pid: string): number | undefined {
  if (!existsSync(`/proc/${pid}/schedstat`)) return undefined;
  let ns = 0;
  for (const task of tasksOf(pid)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e9;
}

function tasksOf(pid: string): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
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
    if (p.pgrp === serverGroup) server += onCpuSeconds(p.pid) ?? p.cpuSeconds;
    else if (p.comm === "postgres") postgres += p.cpuSeconds;
  }
  const own = process.cpuUsage();
  return { server, postgres, generator: (own.user + own.system) / 1e6 };
}

/** Busy ticks of all cores so far (/proc/stat's first line: user, nice, system, irq and softirq). */
export function machineBusyTicks(): number {
  const [cpu] = readFileSync("/proc/stat", "utf8").split("\n", 1);
  const f = cpu!.trim().split(/\s+/).slice(1).map(Number);
  return f[0]! + f[1]! + f[2]! + f[5]! + f[6]!;
}

/** CPU ticks of the bench's children that have exited and been waited for (cutime + cstime). */
export function childrenTicks(): number {
  const fields = statFields(readFileSync("/proc/self/stat", "utf8"));
  return Number(fields[13]) + Number(fields[14]);
}
