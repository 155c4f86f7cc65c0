// The stream scenario of `pnpm bench --compress` (compress.mjs runs it after the list, or alone
// with `--only streams`): 10,000 small NDJSON items and 10,000 SSE events through @api/compress,
// every item ready at once, per coding. Wire bytes against compressing the whole body at once
// (target ≤ 1.1×), time to the last byte against identity (target ≤ 2×), medians of
// `--stream-runs` interleaved sequential requests; bodies checked decoded, byte for byte.
import os from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { median } from './report.mjs';
import { fileStamp, int, r2, rotated, runMeta, stopServer, writeResults } from './harness/index.mjs';

/** The request header of each coding (identity: none). */
export const ACCEPT = { br: 'br', gzip: 'gzip', identity: undefined };

/** The stream scenario: 10,000 small items, as NDJSON lines and as SSE events. */
const STREAM_ITEMS = 10_000;
const STREAM_KINDS = {
  ndjson: { path: '/items', text: (n) => `{"n":${n}}\n` },
  sse: { path: '/events', text: (n) => `data: {"n":${n}}\n\n` },
};
const streamBody = (kind) =>
  Array.from({ length: STREAM_ITEMS }, (_, n) => STREAM_KINDS[kind].text(n)).join('');

/** The two stream routes, for the @api server of compress.mjs (its child process). */
export async function streamRoutes() {
  const v = await import('valibot');
  const { Endpoint, Struct } = await import('@api/core');
  const { NDJSONStreamingResponse, SSEResponse, ServerSentEvent } = await import('@api/streaming');
  const Item = Struct('Item', { n: v.number() });
  // Every item ready at once: what a chatty producer (a query cursor, a log tail) looks like.
  async function* items(wrap) {
    for (let n = 0; n < STREAM_ITEMS; n++) yield wrap({ n });
  }
  class Items extends Endpoint('/items') {
    get = this.operation(
      { returns: NDJSONStreamingResponse.of(Item) },
      () => new NDJSONStreamingResponse({ stream: items((x) => x) }),
    );
  }
  class Events extends Endpoint('/events') {
    get = this.operation(
      { returns: SSEResponse.of(Item) },
      () => new SSEResponse({ stream: items((data) => new ServerSentEvent({ data })) }),
    );
  }
  return { Items, Events };
}

/** One streamed GET: the body as it came off the wire (de-chunked), and ms to its last byte. */
async function streamOnce(server, path, coding) {
  const { request } = await import('node:http');
  const accept = ACCEPT[coding];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(`${server.url}${path}`, { headers: accept ? { 'accept-encoding': accept } : {} }, (r) => {
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () =>
        resolve({
          ms: performance.now() - started,
          encoding: r.headers['content-encoding'],
          body: Buffer.concat(chunks),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/**
 * The stream scenario: per kind (NDJSON, SSE) and coding, `streamRuns` sequential requests;
 * medians of wire bytes and time. Bytes against the whole body compressed at once (same level),
 * time against identity.
 */
export async function streamBench(opts, startApi) {
  const loadBefore = os.loadavg();
  const server = await startApi();
  const codings = ['identity', ...opts.codings.filter((c) => c !== 'identity')];
  const rows = [];
  try {
    for (const kind of Object.keys(STREAM_KINDS)) {
      const expected = streamBody(kind);
      const atOnce = {
        identity: Buffer.byteLength(expected),
        gzip: gzipSync(expected, { level: 6 }).length,
        br: brotliCompressSync(expected, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }).length,
      };
      const runs = Object.fromEntries(codings.map((c) => [c, []]));
      // Interleaved: each round requests every coding once (a busy moment hits them alike).
      for (let round = -1; round < opts.streamRuns; round++) {
        for (const coding of rotated(codings, Math.max(round, 0))) {
          const res = await streamOnce(server, STREAM_KINDS[kind].path, coding);
          const want = coding === 'identity' ? undefined : coding;
          const decoded =
            res.encoding === 'br'
              ? brotliDecompressSync(res.body)
              : res.encoding === 'gzip'
                ? gunzipSync(res.body)
                : res.body;
          if (res.encoding !== want || decoded.toString() !== expected)
            throw new Error(
              `GET ${STREAM_KINDS[kind].path} (${coding}): ${res.encoding}, not the items sent`,
            );
          if (round >= 0) runs[coding].push(res); // round -1 warms up
        }
      }
      const identityMs = median(runs.identity.map((r) => r.ms));
      for (const coding of codings) {
        const bytes = median(runs[coding].map((r) => r.body.length));
        const ms = median(runs[coding].map((r) => r.ms));
        const row = {
          kind,
          coding,
          bytes,
          wholeBytes: atOnce[coding],
          bytesRatio: bytes / atOnce[coding],
          ms,
        };
        row.timeRatio = ms / identityMs;
        rows.push(row);
        console.log(
          `stream ${kind.padEnd(6)} ${coding.padEnd(8)} ${int(bytes).padStart(8)} B (whole body at once ${int(atOnce[coding])} B, ×${r2(row.bytesRatio)})  ` +
            `${ms.toFixed(1).padStart(7)} ms (×${r2(row.timeRatio)} identity)`,
        );
      }
    }
  } finally {
    await stopServer(server);
  }
  const meta = { ...runMeta(loadBefore), items: STREAM_ITEMS, runs: opts.streamRuns };
  const base = join(opts.out, `compress-streams-${fileStamp(meta.date)}`);
  const compressed = rows.filter((r) => r.coding !== 'identity');
  const md = [
    `# Compressed streams: 10,000 small items through @api/compress (${meta.date})`,
    '',
    `\`GET /items\` (NDJSON, \`{"n":…}\` lines) and \`GET /events\` (SSE, \`data:\` events), every item ready at once;`,
    `medians of ${opts.streamRuns} sequential requests per coding, interleaved. Wire bytes: the body as sent (de-chunked);`,
    'against the whole body compressed at once (brotli quality 4, gzip level 6; target ≤ 1.1×). Time: request to last',
    `byte, against identity (target ≤ 2×). Node ${meta.node}. Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')}.`,
    '',
    '| stream | coding | wire bytes | whole body at once | ×whole | ms to last byte | ×identity |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.kind} | ${r.coding} | ${int(r.bytes)} | ${int(r.wholeBytes)} | ${r2(r.bytesRatio)} | ${r.ms.toFixed(1)} | ${r2(r.timeRatio)} |`,
    ),
    '',
  ].join('\n');
  writeResults(base, { meta, rows }, md);
  const worst = (key) => Math.max(...compressed.map((r) => r[key]));
  console.log(
    `compress streams: wire bytes ≤ ×${r2(worst('bytesRatio'))} whole-body (target 1.1), time ≤ ×${r2(worst('timeRatio'))} identity (target 2) → ${base}.md`,
  );
}
