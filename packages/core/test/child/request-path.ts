// Run by test/request-path.test.ts under plain Node (tsx strips the types, ES modules link as
// they do in production): serves a JSON POST route, warms it up, then records V8's precise coverage
// around single requests and prints the core source files every one of them ran, as JSON.
import { Agent, request } from 'node:http';
import { Session, type Profiler } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { BaseApp, Created, Endpoint, Struct, serve } from '../../src/index';

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

const src = fileURLToPath(new URL('../../src/', import.meta.url));
const body = JSON.stringify({ title: 'Alien', year: 1979, genres: ['horror'] });
const server = await serve(new PathApp(), { port: 0, quiet: true });
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

/** The core source files (relative to src/) with a function called, closures included. */
function filesIn(result: Profiler.ScriptCoverage[]): Set<string> {
  const files = new Set<string>();
  for (const script of result) {
    const path = script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url;
    if (!path.startsWith(src)) continue;
    // The module body is the function at offset 0: it ran once, at load.
    if (script.functions.some((f) => f.ranges[0]!.count > 0 && f.ranges[0]!.startOffset > 0))
      files.add(path.slice(src.length));
  }
  return files;
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const statuses = new Set<number>();
for (let i = 0; i < 200; i++) statuses.add(await post());
// Three requests measured one by one; a file counts when every one ran it (a new connection or a
// timer firing during one is not the request's path).
let files: Set<string> | undefined;
for (let i = 0; i < 3; i++) {
  await session.post('Profiler.takePreciseCoverage'); // resets the counts
  statuses.add(await post());
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const ran = filesIn(result);
  files = files === undefined ? ran : new Set([...files].filter((f) => ran.has(f)));
}
session.disconnect();
agent.destroy();
await server.close();
process.stdout.write(JSON.stringify({ statuses: [...statuses], files: [...files!].sort() }));
