// V8 CPU profiles of server processes: the flags that make a server write one when it is stopped,
// and the self time of its functions from the samples.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Node arguments that make a server write `<profileDir>/*.cpuprofile` when it gets SIGINT
 * (`--cpu-prof` writes on a normal exit only; a preload written once into `dir` turns the signal
 * into one). Stop it with `stopProfiled`.
 */
export function cpuProfileArgs(dir, profileDir = dir) {
  const preload = join(dir, 'exit-on-signal.mjs');
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(preload, "process.on('SIGINT', () => process.exit(0));\n");
  return ['--import', preload, '--cpu-prof', `--cpu-prof-dir=${profileDir}`];
}

/** Sends SIGINT and waits for the exit (at most `timeoutMs`), so the profile is on disk. */
export async function stopProfiled(child, timeoutMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  let timer;
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}

/** The `.cpuprofile` in `dir` (`{ file, profile }`), or undefined when none was written. */
export function readCpuProfile(dir) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  return file && { file: join(dir, file), profile: JSON.parse(readFileSync(join(dir, file), 'utf8')) };
}

/**
 * Self time per profile node from the samples (robust to uneven sampling intervals): `self`
 * (node id → µs), `byId` (node id → node), `total` and `busy` (total less `(idle)`) in µs.
 */
export function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    const t = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + t);
    total += t;
    if (byId.get(id).callFrame.functionName === '(idle)') idle += t;
  }
  return { self, byId, total, busy: total - idle };
}

/** Share of a profile's busy (non-idle) time spent in frames for which `match(callFrame)`; NaN when all idle. */
export function selfTimeShare(profile, match) {
  const { self, byId, busy } = selfTimes(profile);
  let hit = 0;
  for (const [id, t] of self) {
    const frame = byId.get(id).callFrame;
    if (frame.functionName !== '(idle)' && match(frame)) hit += t;
  }
  return busy > 0 ? hit / busy : NaN;
}
