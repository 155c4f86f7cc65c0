// operationIds come from a route class's `name` option, so a bundle that renamed the class
// (esbuild: `var Widgets = class _Widgets …` for a class that refers to itself) documents the
// same operations as the sources.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Endpoint, Location, NoContent, Resource, Struct } from '@api/core';
import { documentOf, type Json } from './helpers';

const Widget = Struct('Widget', { id: v.string() });
const WidgetPath = Struct('WidgetPath', { widget_id: v.string() });

const Widgets = class _Widgets extends Resource('/widgets', { name: 'Widgets' }) {
  readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => ({ id: path.widget_id }));
  delete = this.operation({ path: WidgetPath, returns: NoContent.of() }, ({ path }) => {
    void Location.fromOperation(Widgets, 'readOne', { path });
    return new NoContent();
  });
};
const Unnamed = class _Unnamed extends Endpoint('/unnamed') {
  get = this.operation({ returns: Widget }, () => ({ id: 'x' }));
};

describe('operationId', () => {
  it('is <name>_<operation> with the name option, else the class name as it is at run time', async () => {
    const doc: Json = await documentOf((app) => {
      app.includeResource(new Widgets());
      app.includeEndpoint(new Unnamed());
    });
    const ids = Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      ([path, item]) => Object.entries(item).map(([method, op]) => `${method} ${path} ${op.operationId}`),
    );
    expect(ids).toEqual([
      'get /widgets/{widget_id} Widgets_readOne',
      'delete /widgets/{widget_id} Widgets_delete',
      'get /unnamed _Unnamed_get',
    ]);
  });
});
