// Child processes for the release checks: collected output, a time limit, and an environment
// without the variables an outer `pnpm run` sets (they would leak its settings into the scratch
// projects, which must behave like a user's).
import { spawn } from 'node:child_process';

/** The environment a user's shell would have: the outer pnpm run's `npm_*`/`PNPM_*` removed. */
export function userEnv(extra = {}) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_|PNPM_|pnpm_)/i.test(key) && key !== 'INIT_CWD'),
  );
  return {
    ...env,
    COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
    NO_UPDATE_NOTIFIER: '1',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/**
 * Runs a command; resolves with `{ code, stdout, stderr, output }` whatever its exit status
 * (`code` is null when the time limit killed it).
 */
export function run(command, args, { cwd, env = userEnv(), timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, output: `$ ${command} ${args.join(' ')}\n${stdout}${stderr}` });
    });
  });
}
