// The ArkType app's /openapi.json passes the demo's three validators, with the named models as components.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import {
  documentConformanceTests,
  fetchDocument,
  type Document,
} from '../../../apps/demo/test/helpers/conformance';
import { ArkTypeApp } from '../src/app';

let client: TestClient;
let doc: Document;

beforeAll(async () => {
  client = await TestClient.start(new ArkTypeApp({ logger: { info() {}, warn() {}, error() {} } }));
  doc = await fetchDocument(client.url);
}, 60_000);
afterAll(async () => {
  await client?.close();
});

describe('GET /openapi.json of the ArkType app', () => {
  it('names Widget, WidgetIn, WidgetPatch and Deleted as components', () => {
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['Widget', 'WidgetIn', 'WidgetPatch', 'Deleted']),
    );
  });

  documentConformanceTests(() => doc, { lintTimeoutMs: 90_000 });
});
