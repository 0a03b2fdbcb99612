// CPU time spent, less sensitive than wall time to other load on a shared machine: this
// process (Node: app, fakes, producers) and its child processes (FerretDB / redis-server when
// this run started them), the latter read from /proc on Linux.
import { readFileSync, readdirSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

export interface CpuSnapshot {
  selfMs: number;
  /** undefined where /proc is not readable. */
  childrenMs: number | undefined;
}

function childrenCpuMs(): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  let total = 0;
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // After "pid (comm) ": state ppid … utime (14th field) stime (15th).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(f[1]) !== process.pid) continue;
    total += (Number(f[11]) + Number(f[12])) * TICK_MS;
  }
  return total;
}

export function cpuSnapshot(): CpuSnapshot {
  const u = process.cpuUsage();
  return { selfMs: (u.user + u.system) / 1000, childrenMs: childrenCpuMs() };
}

/** CPU used since `start`. */
export function cpuSince(start: CpuSnapshot): CpuSnapshot {
  const now = cpuSnapshot();
  const childrenMs =
    now.childrenMs === undefined || start.childrenMs === undefined ? undefined : now.childrenMs - start.childrenMs;
  return { selfMs: now.selfMs - start.selfMs, childrenMs };
}
