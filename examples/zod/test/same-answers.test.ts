// The demo (valibot models, apps/demo) and this app (the same models in zod) answer the widget
// requests of requests.ts the same: status, the headers that matter and the body, byte for byte
// (created ids aside), validation Problems included: core words a zod issue as valibot words the
// same constraint (`Invalid min length: expected >=1`), never quoting the submitted value.
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
  params?: { issues?: { path: string; message: string }[] };
}

describe('the zod app answers as the demo', () => {
  const steps = STEPS.map((s, n) => [s.name, n] as const);
  it.each(steps)('%s: same status, headers and body bytes', (_name, n) => {
    expect(zod[n]).toEqual(demo[n]);
  });

  it('compares all 32 requests, 6 of them validation Problems', () => {
    expect(STEPS).toHaveLength(32);
    expect(STEPS.filter((s) => s.kind === 'validation')).toHaveLength(6);
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

describe('validation messages (zod issues, worded by core as valibot words them)', () => {
  const body = (name: string) => JSON.parse(zod[STEPS.findIndex((s) => s.name === name)]!.body) as unknown;

  it('POST /widgets invalid: 422 with both fields', () => {
    expect(body('POST /widgets invalid: 422')).toEqual({
      type: 'validation-failed',
      title: 'Validation failed',
      status: 422,
      detail: 'Invalid min length: expected >=1 at `$.name`',
      params: {
        reason: 'Invalid min length: expected >=1 at `$.name`',
        issues: [
          { path: '$.name', message: 'Invalid min length: expected >=1' },
          { path: '$.priceCents', message: 'Invalid min value: expected >=0' },
        ],
      },
    });
  });

  it('GET /widgets?limit=101: 400 at `query parameter limit`', () => {
    expect(body('GET /widgets?limit=101: 400')).toEqual({
      type: 'malformed-request',
      title: 'Malformed request',
      status: 400,
      detail: 'Invalid max value: expected <=100 at `query parameter limit`',
      params: {
        reason: 'Invalid max value: expected <=100 at `query parameter limit`',
        issues: [{ path: 'query parameter limit', message: 'Invalid max value: expected <=100' }],
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
