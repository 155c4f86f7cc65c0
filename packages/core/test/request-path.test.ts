// Which of core's files a request runs through, measured: V8's precise coverage around one request
// (after a warm-up), the files under src/ with a function called. docs/extensions.md lists them for
// a JSON POST; this keeps the list true and the path short (issue: at most 10 files).
import { request, Agent } from 'node:http';
import { Session, type Profiler } from 'node:inspector/promises';

type CoverageResult = Profiler.ScriptCoverage[];
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { BaseApp, Created, Endpoint, Struct, serve, type RunningServer } from '../src/index';

const MovieIn = Struct('MovieIn', {
  title: v.pipe(v.string(), v.minLength(1)),
  year: v.pipe(v.number(), v.integer()),
  genres: v.array(v.string()),
});
const Movie = Struct('Movie', { id: v.number(), ...MovieIn.entries });

class Movies extends Endpoint('/movies') {
  post = this.operation(
    { json: MovieIn, returns: Created.of(Movie) },
    ({ json }) => new Created({ json: { id: 1, ...json } }),
  );
}

class PathApp extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Movies());
  }
}

const src = fileURLToPath(new URL('../src/', import.meta.url));
const body = JSON.stringify({ title: 'Alien', year: 1979, genres: ['horror'] });
let server: RunningServer;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function post(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/movies`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The core source files (relative to src/) with at least one function called during `run`. */
async function filesRunBy(run: () => Promise<unknown>): Promise<string[]> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  for (let i = 0; i < 200; i++) await run();
  // Three requests measured one by one; a file counts when every one ran it (a new connection or a
  // timer firing during one is not the request's path).
  let files: Set<string> | undefined;
  for (let i = 0; i < 3; i++) {
    await session.post('Profiler.takePreciseCoverage'); // resets the counts: only `run` below counts
    await run();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    const ran = filesIn(result);
    files = files === undefined ? ran : new Set([...files].filter((f) => ran.has(f)));
  }
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();
  return [...files!].sort();
}

/** The core source files (relative to src/) with a function called in one coverage result. */
function filesIn(result: CoverageResult): Set<string> {
  const files = new Set<string>();
  for (const script of result) {
    const path = script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url;
    if (!path.startsWith(src) || /\.test(-d)?\.ts$/.test(path)) continue;
    // Every function called, closures included; not the module body (the function at offset 0).
    const called = script.functions.filter((f) => f.ranges[0]!.count > 0 && f.ranges[0]!.startOffset > 0);
    if (process.env.SHOW_PATH)
      console.log(path.slice(src.length), called.map((f) => f.functionName).join(', '));
    if (called.length > 0) files.add(path.slice(src.length));
  }
  return files;
}

beforeAll(async () => {
  server = await serve(new PathApp(), { port: 0, quiet: true });
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});

describe('the request path', () => {
  it('a JSON POST runs through the core files docs/extensions.md lists, at most 10', async () => {
    expect(await post()).toBe(201);
    const files = await filesRunBy(post);
    const doc = readFileSync(new URL('../../../docs/extensions.md', import.meta.url), 'utf8');
    const block = /<!-- json-post-files -->\n([\s\S]*?)<!-- \/json-post-files -->/.exec(doc);
    const listed = [...(block?.[1] ?? '').matchAll(/`([a-z/-]+\.ts)`/g)].map((m) => m[1]!).sort();
    expect(files).toEqual(listed);
    expect(files.length).toBeLessThanOrEqual(10);
  });
});
