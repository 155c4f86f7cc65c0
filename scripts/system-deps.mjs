// The first step of `pnpm test:all`: the system programs the tests need, from Debian.
// Present → nothing to do. Absent, running as root with apt-get → installed. Otherwise → stop at
// once with the exact command to run, rather than fail later inside a test.
//
// A test needing another system program adds it to PROGRAMS (command on PATH → Debian package).
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const PROGRAMS = [
  {
    command: 'chromium',
    pkg: 'chromium',
    why: 'the browser end-to-end tests (headless, via playwright-core)',
  },
  { command: 'redis-server', pkg: 'redis-server', why: 'the Redis-backed WebSocket channel and task tests' },
];

/** Whether `command` is an executable on PATH. */
function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const missing = PROGRAMS.filter((p) => !onPath(p.command));
if (missing.length === 0) process.exit(0);

const pkgs = missing.map((p) => p.pkg).join(' ');
const command = `apt-get update && apt-get install -y ${pkgs}`;
for (const p of missing) console.error(`system-deps: ${p.command} is missing (needed by ${p.why})`);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot || !onPath('apt-get')) {
  const how = onPath('apt-get')
    ? `sudo sh -c '${command}'`
    : `install ${pkgs} with your system's package manager`;
  console.error(
    `system-deps: not root with apt-get, so nothing was installed. Run:\n\n  ${how}\n\nthen run the tests again.`,
  );
  process.exit(1);
}

console.error(`system-deps: installing ${pkgs} (${command})`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', ...missing.map((p) => p.pkg)],
]) {
  const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (result.status !== 0) {
    console.error(
      `system-deps: \`apt-get ${args.join(' ')}\` failed (exit ${result.status}). Run:\n\n  ${command}\n`,
    );
    process.exit(1);
  }
}
const still = missing.filter((p) => !onPath(p.command));
if (still.length > 0) {
  console.error(`system-deps: still missing after apt-get: ${still.map((p) => p.command).join(', ')}`);
  process.exit(1);
}
