// CPU profile of one server under wrk load: where the server's busy time goes, by function and by
// area (node:http and the socket, @api, valibot, GC). One command:
//   pnpm bench --profile movies            (or: pnpm --filter @api/bench profile --scenario movies)
// Options: --server api|raw|fastify|hono|express (default api), --scenario info|movies|items|notfound|invalid,
//          --duration S (default 10), --top N (default 25). Writes bench/results/profile-<server>-<scenario>-<ts>.md
//          and keeps the .cpuprofile next to it (open it in Chrome DevTools → Performance, or speedscope).
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIOS } from './scenarios.mjs';
import {
  argOf,
  BENCH,
  cpuProfileArgs,
  fileStamp,
  readCpuProfile,
  selfTimes,
  stopProfiled,
  wrk,
} from './harness/index.mjs';
import { startBenchServer } from './servers.mjs';

const arg = (name, fallback) => argOf(process.argv, name, fallback);
const SERVER = arg('server', 'api');
const SCENARIO = arg('scenario', arg('profile', 'movies'));
const DURATION = Number(arg('duration', 10));
const TOP = Number(arg('top', 25));
const PORT = 18790;

const scenario = SCENARIOS.find((s) => s.name === SCENARIO);
if (!scenario) {
  console.error(`unknown scenario ${SCENARIO}; one of ${SCENARIOS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
if (spawnSync('which', ['wrk']).status !== 0) {
  console.error('wrk is missing: apt-get update && apt-get install -y wrk');
  process.exit(2);
}

const dir = join(tmpdir(), `api-profile-${process.pid}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const { child } = await startBenchServer(SERVER, { nodeArgs: cpuProfileArgs(dir), port: PORT });

/** One `wrk -t1 -c50` run (wrk's default timeout); `undefined` when wrk reports nothing. */
const load = (seconds) =>
  wrk({
    url: `http://127.0.0.1:${PORT}${scenario.path}`,
    seconds,
    method: scenario.method,
    body: scenario.body,
    auth: scenario.auth,
  }).catch(() => undefined);

console.log(`profiling ${SERVER} on ${SCENARIO} for ${DURATION} s (server on core 0, wrk on core 1)…`);
await load(2); // warm-up: optimised code, not the interpreter, is what we profile
const run = await load(DURATION);
await stopProfiled(child, 30_000);

const saved = readCpuProfile(dir);
if (!saved) {
  console.error('no .cpuprofile was written');
  process.exit(1);
}
const { self, byId, total, busy } = selfTimes(saved.profile);

function area(frame) {
  const url = frame.url ?? '';
  const fn = frame.functionName;
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(program)' || fn === '(idle)' || fn === '(root)') return fn;
  if (url.startsWith('node:') || url === '')
    return fn === 'writev' || fn === 'writeBuffer' || fn === 'writeUtf8String'
      ? 'socket writes'
      : 'node (http, streams, runtime)';
  if (url.includes('/packages/') || url.includes('@api/')) return '@api';
  if (url.includes('valibot')) return 'valibot';
  return 'other modules';
}
const fns = new Map();
const areas = new Map();
for (const [id, t] of self) {
  const { callFrame } = byId.get(id);
  if (callFrame.functionName === '(idle)') continue;
  const url = (callFrame.url ?? '').replace(/^file:\/\//, '').replace(/.*\/(packages|node_modules)\//, '$1/');
  const key = `${callFrame.functionName || '(anonymous)'} ${url}${url ? `:${callFrame.lineNumber + 1}` : ''}`;
  fns.set(key, (fns.get(key) ?? 0) + t);
  const a = area(callFrame);
  areas.set(a, (areas.get(a) ?? 0) + t);
}
const pct = (t) => `${((100 * t) / busy).toFixed(1)}%`;
const rows = [...fns].sort((a, b) => b[1] - a[1]).slice(0, TOP);
const stamp = fileStamp(new Date().toISOString());
const lines = [
  `# CPU profile: ${SERVER} on ${SCENARIO}`,
  '',
  `${new Date().toISOString()}, ${DURATION} s under \`wrk -t1 -c50\`${run ? `: ${Math.round(run.requests / (run.duration_us / 1e6))} req/s, ${run.requests} requests` : ''}; server pinned to core 0.`,
  `Busy time ${(busy / 1e3).toFixed(0)} ms of ${(total / 1e3).toFixed(0)} ms sampled${run ? ` (${((busy / run.requests) * 1).toFixed(1)} µs of sampled CPU per request)` : ''}. Percentages are of busy time.`,
  '',
  '| area | self |',
  '|---|---|',
  ...[...areas].sort((a, b) => b[1] - a[1]).map(([a, t]) => `| ${a} | ${pct(t)} |`),
  '',
  `| top ${TOP} functions (self time) | self |`,
  '|---|---|',
  ...rows.map(([k, t]) => `| \`${k}\` | ${pct(t)} |`),
  '',
];
const out = join(BENCH, 'results', `profile-${SERVER}-${SCENARIO}-${stamp}`);
mkdirSync(join(BENCH, 'results'), { recursive: true });
writeFileSync(`${out}.md`, lines.join('\n'));
renameSync(saved.file, `${out}.cpuprofile`);
rmSync(dir, { recursive: true, force: true });
console.log(lines.join('\n'));
console.log(`written: ${out}.md and .cpuprofile`);
