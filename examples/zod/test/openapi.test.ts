// The zod app's /openapi.json passes the same three validators as the demo's (two schema validators
// and redocly lint with @api/openapi's redocly.yaml; apps/demo/test/openapi.test.ts), names its
// models as components, and every answer of the shared request table matches it (contract check).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import {
  checkContract,
  documentConformanceTests,
  fetchDocument,
  recordingApp,
  type Document,
  type RecordedExchange,
} from '../../../apps/demo/test/helpers/conformance';
import { ZodApp } from '../src/app';
import { quiet } from './helpers';
import { runSteps } from './requests';

let client: TestClient;
let doc: Document;
const exchanges: RecordedExchange[] = [];

beforeAll(async () => {
  client = await TestClient.start(recordingApp(new ZodApp({ logger: quiet }), exchanges));
  doc = await fetchDocument(client.url);
}, 60_000);
afterAll(async () => {
  await client?.close();
});

describe('GET /openapi.json of the zod app', () => {
  it('lists the demo’s widget operations, and the zod models as components', () => {
    const operations = Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([m, op]) => `${m.toUpperCase()} ${path} ${op.operationId}`),
      )
      .sort();
    expect(operations).toEqual(
      [
        'POST /widgets WidgetResource_create',
        'GET /widgets WidgetResource_readMany',
        'GET /widgets/{widget_id} WidgetResource_readOne',
        'PUT /widgets/{widget_id} WidgetResource_updateFull',
        'PATCH /widgets/{widget_id} WidgetResource_updatePartial',
        'DELETE /widgets/{widget_id} WidgetResource_delete',
        'GET /featured-widget FeaturedWidgetEndpoint_get',
        'GET /widget-count WidgetCountEndpoint_get',
      ].sort(),
    );
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    for (const name of ['Widget', 'WidgetIn', 'WidgetPatch', 'Deleted', 'WidgetCount'])
      expect(Object.keys(schemas), name).toContain(name);
  });

  documentConformanceTests(() => doc, { lintTimeoutMs: 90_000 });

  it('every answer of the shared request table matches the document', async () => {
    await runSteps(client);
    const report = await checkContract(doc, exchanges);
    expect(report.violations).toEqual([]);
    expect([...report.covered]).toEqual(
      expect.arrayContaining(['WidgetResource_create 201', 'WidgetResource_readMany 400']),
    );
  }, 60_000);
});
