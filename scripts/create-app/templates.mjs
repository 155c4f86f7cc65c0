// The files of a new @api project (`pnpm create-app <dir>`): the quickstart split into an app
// module and its entry point, a TestClient test, and the configs to type-check, build and run it.

/** The app: the root README's quickstart resource, exported for main.ts and the test. */
export const APP_TS = `import * as v from 'valibot';
import { BaseApp, Created, Location, NotFoundError, Resource, Struct } from '@api/core';

export const WidgetIn = Struct('WidgetIn', {
  name: v.pipe(v.string(), v.minLength(1)),
  priceCents: v.pipe(v.number(), v.integer()),
});
export const Widget = Struct('Widget', { id: v.string(), ...WidgetIn.entries });
const WidgetPath = Struct('WidgetPath', { widget_id: v.string() });

/** POST /widgets creates a widget; GET /widgets/{widget_id} reads it back. */
export class WidgetResource extends Resource('/widgets', { name: 'WidgetResource' }) {
  readonly #widgets = new Map<string, v.InferOutput<typeof Widget>>();

  create = this.operation({ json: WidgetIn, returns: Created.of(Widget) }, ({ json }) => {
    const widget = { id: String(this.#widgets.size + 1), ...json };
    this.#widgets.set(widget.id, widget);
    const location = Location.fromOperation(WidgetResource, 'readOne', { path: { widget_id: widget.id } });
    return new Created({ json: widget, location });
  });

  readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => {
    const widget = this.#widgets.get(path.widget_id);
    if (widget === undefined) throw new NotFoundError();
    return widget;
  });
}

/** The app: \`wire()\` mounts every route. */
export class App extends BaseApp {
  protected override async wire() {
    this.includeResource(new WidgetResource());
  }
}
`;

/** The entry point: serves the app (PORT, default 8000); SIGTERM/SIGINT drain, then stop. */
export const MAIN_TS = `import { serve } from '@api/core';
import { App } from './app.js';

const port = Number(process.env.PORT ?? 8000);
await serve(new App(), { port, host: process.env.HOST ?? '127.0.0.1' });
`;

/** The test: the app in process, driven by @api/testing's TestClient over a real socket. */
export const TEST_TS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TestClient } from '@api/testing';
import { App } from '../src/app.js';

test('creates a widget and reads it back', async () => {
  const client = await TestClient.start(new App());
  try {
    const created = await client.post('/widgets', { json: { name: 'bolt', priceCents: 120 } });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('location'), '/widgets/1');
    const found = await client.get('/widgets/1');
    assert.deepEqual(found.json(), { id: '1', name: 'bolt', priceCents: 120 });
  } finally {
    await client.close();
  }
});

test('answers 422 for an invalid body and 404 for an unknown widget', async () => {
  const client = await TestClient.start(new App());
  try {
    const invalid = await client.post('/widgets', { json: { name: 'bolt', priceCents: 'x' } });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.headers.get('content-type'), 'application/problem+json');
    assert.equal((await client.get('/widgets/2')).status, 404);
  } finally {
    await client.close();
  }
});
`;

/** Type-checks sources and tests (\`pnpm typecheck\`); \`tsconfig.build.json\` compiles src/ alone. */
export const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['src', 'test'],
};

/** What `pnpm build` compiles: src/ into dist/ (class names kept: tsc does not rename). */
export const TSCONFIG_BUILD = {
  extends: './tsconfig.json',
  compilerOptions: { noEmit: false, rootDir: 'src', outDir: 'dist' },
  include: ['src'],
};

/** The scripts every project gets. */
export const SCRIPTS = {
  dev: 'tsx watch src/main.ts',
  build: 'tsc -p tsconfig.build.json',
  start: 'node dist/main.js',
  test: 'tsx --test test/*.test.ts',
  typecheck: 'tsc',
};

/** The project's README: what each script does. */
export function readme(name) {
  return `# ${name}

An HTTP API on [@api](https://github.com/api-framework/api): \`src/app.ts\` declares the routes, \`src/main.ts\`
serves them, \`test/app.test.ts\` drives the app with \`TestClient\`.

| command          | what                                                             |
| ---------------- | ---------------------------------------------------------------- |
| \`pnpm dev\`       | serve from the sources on port 8000, restarted on every change   |
| \`pnpm test\`      | the tests (node:test through tsx)                                |
| \`pnpm typecheck\` | type-check sources and tests                                     |
| \`pnpm build\`     | compile \`src/\` to \`dist/\`                                        |
| \`pnpm start\`     | serve the build (\`PORT\`, default 8000)                           |

Try it: \`curl -si localhost:8000/widgets -H 'content-type: application/json' -d '{"name":"bolt","priceCents":120}'\`.
`;
}

export const GITIGNORE = 'node_modules\ndist\n';
