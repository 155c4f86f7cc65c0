// /proc readers and small process helpers (Linux only).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let hz = 100;
try {
  hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  /* default 100 */
}
export const CLK_TCK = hz;

/** Per-core tick counters from /proc/stat: busy excludes idle and iowait. */
export function readCpu() {
  const cores = {};
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const m = /^cpu(\d+) (.*)$/.exec(line);
    if (!m) continue;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = m[2].trim().split(/\s+/).map(Number);
    cores[m[1]] = {
      busy: user + nice + system + irq + softirq + steal,
      irq: irq + softirq,
      idle: idle + iowait,
    };
  }
  return cores;
}

/** utime+stime (own) and cutime+cstime (waited-for children) of a process, in ticks; null if gone. */
export function readProcTicks(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { self: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
  } catch {
    return null;
  }
}

/**
 * What a process has used so far, from /proc (all its threads): `utime`/`stime` (ticks), `minflt`
 * (minor page faults), `rchar`/`wchar` (bytes through read- and write-family syscalls, sockets
 * included), `syscr`/`syscw` (those syscalls), `vcsw`/`ivcsw` (voluntary and involuntary context
 * switches, summed over threads); null if gone. `/proc/<pid>/io` needs the same user (NaN fields
 * otherwise).
 */
export function readUsage(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    const u = { utime: Number(f[11]), stime: Number(f[12]), minflt: Number(f[7]) };
    let io = '';
    try {
      io = readFileSync(`/proc/${pid}/io`, 'utf8');
    } catch {
      /* not permitted */
    }
    for (const k of ['rchar', 'wchar', 'syscr', 'syscw'])
      u[k] = Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(io)?.[1] ?? NaN);
    u.vcsw = 0;
    u.ivcsw = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const st = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
        u.vcsw += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(st)?.[1] ?? 0);
        u.ivcsw += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(st)?.[1] ?? 0);
      } catch {
        /* thread gone */
      }
    }
    return u;
  } catch {
    return null;
  }
}

/**
 * A process's CPU time in ns, summed over its threads' schedstat (exact, where /proc/<pid>/stat
 * counts 10 ms ticks; time the hypervisor stole is not in it); NaN if the process is gone.
 */
export function schedNs(pid) {
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return NaN;
  }
  let ns = 0;
  for (const tid of tids) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      /* thread gone */
    }
  }
  return ns;
}

/** `b - a` field by field (two `readUsage` results). */
export const usageDelta = (a, b) => Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));

/** Fields of /proc/<pid>/status in kB (VmHWM, VmRSS). */
export function readMem(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const get = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? NaN);
    return { hwmKb: get('VmHWM'), rssKb: get('VmRSS') };
  } catch {
    return { hwmKb: NaN, rssKb: NaN };
  }
}

/** Reset VmHWM to the current RSS (clear_refs 5, Linux ≥ 4.0). Returns false if not permitted. */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export function cpuModel() {
  try {
    return /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function has(cmd) {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
