/**
 * CPU time of processes, from /proc (Linux), for the benchmarks: with the load generator, other work and
 * PostgreSQL sharing the machine, a run's CPU cost says what a rate alone cannot.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS = (() => {
  const result = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(result.stdout?.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
})();

/**
 * user + system CPU time of a process in ms, from /proc; 0 when it is gone or /proc is not there. With
 * `reaped`, also that of its children that have ended (PostgreSQL's postmaster: the connections gone).
 */
export function processCpuMs(pid: number, reaped = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server listening on `port` (its postmaster and every process it started), by /proc. */
function postgresPids(port: number): number[] {
  if (!existsSync('/proc')) return [];
  const entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const parents = new Map<number, number>();
  let postmaster: number | null = null;
  for (const name of entries) {
    const pid = Number(name);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (postmaster === null) {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        if (cmdline[0]?.endsWith('/postgres') && cmdline.includes('-p') && cmdline[cmdline.indexOf('-p') + 1] === String(port)) postmaster = pid;
      }
    } catch {
      // gone meanwhile
    }
  }
  if (postmaster === null) return [];
  const root = postmaster;
  return [root, ...[...parents].filter(([, parent]) => parent === root).map(([pid]) => pid)];
}

/**
 * CPU time so far, in ms, of the PostgreSQL server listening on `port`: its postmaster with its children
 * that have ended (connections gone), and those still running. Null when there is none (or no /proc).
 */
export function postgresCpuMs(port: number | null): number | null {
  if (port === null) return null;
  const pids = postgresPids(port);
  return pids.length === 0 ? null : pids.reduce((sum, pid, i) => sum + processCpuMs(pid, i === 0), 0);
}
