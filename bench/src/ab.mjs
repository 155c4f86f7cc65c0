// Paired A/B: two servers, many short alternating samples, so this machine's second-to-second drift
// hits both alike. Reports the median of per-pair ratios (server CPU µs/request and req/s).
// Usage: pnpm --filter @api/bench ab [--a api] [--b raw] [--scenario info] [--pairs 15] [--duration 1]
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIOS } from './scenarios.mjs';
import { readProcTicks, CLK_TCK, sleep } from './sys.mjs';

const BENCH = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
};
const A = arg('a', 'api');
const B = arg('b', 'raw');
const scenarioNames = arg('scenario', 'info,movies').split(',');
const PAIRS = Number(arg('pairs', 15));
const DURATION = Number(arg('duration', 1));

function start(name, port) {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', '0', process.execPath, join(BENCH, 'servers', `${name}.mjs`)], {
      env: { ...process.env, PORT: String(port), NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d) => (String(d).includes('ready') ? resolve(child) : undefined));
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

function wrk(port, scenario) {
  const r = spawnSync(
    'taskset',
    [
      '-c',
      '1',
      'wrk',
      '-t1',
      '-c50',
      `-d${DURATION}s`,
      '-s',
      join(BENCH, 'src/wrk.lua'),
      `http://127.0.0.1:${port}${scenario.path}`,
    ],
    {
      encoding: 'utf8',
      env: {
        ...process.env,
        BENCH_METHOD: scenario.method,
        BENCH_BODY: scenario.body === undefined ? '' : JSON.stringify(scenario.body),
        BENCH_AUTH: scenario.auth ?? '',
      },
    },
  );
  const line = r.stdout.split('\n').find((l) => l.startsWith('WRKJSON '));
  return JSON.parse(line.slice(8));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const servers = { [A]: await start(A, 18700), [B]: await start(B, 18701) };
const ports = { [A]: 18700, [B]: 18701 };
try {
  for (const name of scenarioNames) {
    const scenario = SCENARIOS.find((s) => s.name === name);
    // warm-up; --mixed first sends every scenario (as the main harness's checks do) so type feedback is realistic
    if (process.argv.includes('--mixed')) for (const other of SCENARIOS) for (const s of [A, B]) wrk(ports[s], other);
    for (const s of [A, B]) wrk(ports[s], scenario);
    const cpuRatio = [];
    const rpsRatio = [];
    const cpu = { [A]: [], [B]: [] };
    for (let i = 0; i < PAIRS; i++) {
      const order = i % 2 === 0 ? [A, B] : [B, A];
      const sample = {};
      for (const s of order) {
        const t0 = readProcTicks(servers[s].pid).self;
        const w = wrk(ports[s], scenario);
        const t1 = readProcTicks(servers[s].pid).self;
        sample[s] = {
          us: (((t1 - t0) / CLK_TCK) * 1e6) / w.requests,
          rps: w.requests / (w.duration_us / 1e6),
        };
        cpu[s].push(sample[s].us);
        await sleep(50);
      }
      cpuRatio.push(sample[A].us / sample[B].us);
      rpsRatio.push(sample[A].rps / sample[B].rps);
    }
    console.log(
      `${name}: ${A}/${B} server CPU per request ×${median(cpuRatio).toFixed(2)} (median of ${PAIRS} pairs; ${A} ${median(cpu[A]).toFixed(1)} µs, ${B} ${median(cpu[B]).toFixed(1)} µs), req/s ×${median(rpsRatio).toFixed(2)}`,
    );
  }
} finally {
  for (const child of Object.values(servers)) child.kill('SIGKILL');
}
