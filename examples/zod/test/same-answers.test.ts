// The demo (valibot models, apps/demo) and this app (the same models in zod) answer the widget
// requests of requests.ts the same: status, the headers that matter and the body, byte for byte
// (created ids aside). Validation Problems share status, type, title and issue paths; their messages
// come from each library's side (valibot's own wording, core's wording for zod issues) and are pinned
// here for zod.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from '../../../apps/demo/test/helpers/demo';
import { runSteps, STEPS, type Answer } from './requests';
import { startZod } from './helpers';

let demo: Answer[];
let zod: Answer[];

beforeAll(async () => {
  const { client: demoClient } = await startDemo();
  const zodClient = await startZod({ openapi: false });
  try {
    demo = await runSteps(demoClient);
    zod = await runSteps(zodClient);
  } finally {
    await Promise.all([demoClient.close(), zodClient.close()]);
  }
}, 60_000);

interface Problem {
  type: string;
  title: string;
  status: number;
  params?: { issues?: { path: string; message: string }[] };
}

const shape = (a: Answer) => {
  const p = JSON.parse(a.body) as Problem;
  return {
    status: a.status,
    headers: a.headers,
    problem: { type: p.type, title: p.title, status: p.status },
    paths: p.params?.issues?.map((i) => i.path),
  };
};

describe('the zod app answers as the demo', () => {
  const exact = STEPS.map((s, n) => [s.name, n] as const).filter(([, n]) => STEPS[n]!.kind === undefined);
  it.each(exact)('%s: same status, headers and body bytes', (_name, n) => {
    expect(zod[n]).toEqual(demo[n]);
  });

  const validation = STEPS.map((s, n) => [s.name, n] as const).filter(
    ([, n]) => STEPS[n]!.kind === 'validation',
  );
  it.each(validation)('%s: same status, Problem type and issue paths', (_name, n) => {
    expect(shape(zod[n]!)).toEqual(shape(demo[n]!));
  });

  it('covers every kind of answer: 200, 201, 400, 401, 404, 405, 409, 415, 422', () => {
    expect([...new Set(zod.map((a) => a.status))].sort()).toEqual([
      200, 201, 400, 401, 404, 405, 409, 415, 422,
    ]);
  });

  it('pins the demo answers it compares against (the demo contract tests expect these)', () => {
    const at = (name: string) => demo[STEPS.findIndex((s) => s.name === name)]!;
    expect(at('POST /widgets')).toEqual({
      status: 201,
      headers: {
        'content-type': 'application/json',
        location: '/widgets/<id0>',
        link: '</widgets/<id0>>; rel="self", </widgets>; rel="collection"',
        'www-authenticate': undefined,
        allow: undefined,
      },
      body: '{"id":"<id0>","name":"Sprocket","priceCents":250}',
    });
    expect(JSON.parse(at('GET /widgets/{id} deleted: 404').body)).toEqual({
      type: 'widget-not-found',
      title: 'Widget not found',
      status: 404,
      detail: 'Widget <id2> not found',
      params: { widgetId: '<id2>' },
    });
  });
});

describe('validation messages (zod issues, worded by core)', () => {
  const body = (name: string) => JSON.parse(zod[STEPS.findIndex((s) => s.name === name)]!.body) as unknown;

  it('POST /widgets invalid: 422 with both fields', () => {
    expect(body('POST /widgets invalid: 422')).toEqual({
      type: 'validation-failed',
      title: 'Validation failed',
      status: 422,
      detail: 'Expected string of length >= 1, got string at `$.name`',
      params: {
        reason: 'Expected string of length >= 1, got string at `$.name`',
        issues: [
          { path: '$.name', message: 'Expected string of length >= 1, got string' },
          { path: '$.priceCents', message: 'Expected number of >= 0, got number' },
        ],
      },
    });
  });

  it('GET /widgets?limit=101: 400 at `query parameter limit`', () => {
    expect(body('GET /widgets?limit=101: 400')).toEqual({
      type: 'malformed-request',
      title: 'Malformed request',
      status: 400,
      detail: 'Expected number of <= 100, got number at `query parameter limit`',
      params: {
        reason: 'Expected number of <= 100, got number at `query parameter limit`',
        issues: [{ path: 'query parameter limit', message: 'Expected number of <= 100, got number' }],
      },
    });
  });

  it('never echoes a submitted value (zod quotes it in its own messages)', () => {
    const text = zod[STEPS.findIndex((s) => s.name === 'POST /widgets wrong types: 422')]!.body;
    expect(text).not.toContain('<script>');
    expect((JSON.parse(text) as Problem).params?.issues).toEqual([
      { path: '$.name', message: 'Expected string, got number' },
      { path: '$.priceCents', message: 'Expected number, got string' },
    ]);
  });
});
