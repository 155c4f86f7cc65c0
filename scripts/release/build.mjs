// Builds the published packages before the release checks pack them (turbo: a cache hit when
// scripts/check.mjs has just built them).
import { spawnSync } from 'node:child_process';
import { readManifest, root } from './manifest.mjs';
import { PUBLISHED } from './packages.mjs';

export default function setup() {
  const filters = PUBLISHED.map((name) => `--filter=${readManifest(name).name}`);
  const result = spawnSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', ...filters, '--output-logs=errors-only'],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
    },
  );
  if (result.status !== 0) throw new Error('building the published packages failed; see the log above');
}
