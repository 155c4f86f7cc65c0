// Other routers' path syntaxes (`/books/:id`, `/files/*`, `{id?}`) are refused where they are
// declared, naming the `{slot}` form: taken as literal text they would serve `/books/:id` and
// answer 404 for `/books/42`, with no hint why.
import { describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { defineExtension } from '../src/extension';
import { BaseApp, Endpoint, Resource, WiringError } from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger } from './fixtures';

/** What `Resource(path)` throws, as its message. */
function resourceError(path: string): string {
  return expectWiringError(() => Resource(path as '/'), 'API_WIRING_INVALID_PATH', `Resource('${path}')`)
    .message;
}

describe('peer path syntax', () => {
  it("refuses Express/Fastify/Hono's :param, naming the slot (snake_case) it should be", () => {
    expect(resourceError('/books/:id')).toBe(
      `Resource('/books/:id'): segment ":id" is Express/Fastify/Hono parameter syntax, which @api would ` +
        'take as literal text (the route would never match). Fix: write the parameter as a slot: "{id}".',
    );
    expect(resourceError('/shelves/:shelfId/books')).toContain(
      'Fix: write the parameter as a slot: "{shelf_id}".',
    );
    expect(resourceError('/books/:id?')).toContain(
      'Fix: write the parameter as a slot: "{id}", and declare a second route without it for the optional case.',
    );
    expect(resourceError('/books/:id(\\d+)')).toContain(
      '"{id}" (a slot is one whole segment; constrain its value in the path Struct)',
    );
    expect(resourceError('/books/:id{[0-9]+}')).toContain('"{id}"');
  });

  it('refuses wildcards, optional slots, converters and spread parameters', () => {
    expect(resourceError('/files/*')).toBe(
      `Resource('/files/*'): segment "*" is a wildcard, which @api does not have (it would be literal text). ` +
        'Fix: a slot matches one whole segment, e.g. "/files/{file_name}"; for a tree of files use @api/assets.',
    );
    expect(resourceError('/files/*path')).toContain('segment "*path" is a wildcard');
    expect(resourceError('/books/{id?}')).toBe(
      `Resource('/books/{id?}'): slot "{id?}" is optional, and @api slots are always present. ` +
        'Fix: write "{id}" and declare a second route without the segment.',
    );
    expect(resourceError('/books/{id:int}')).toContain(
      'slot "{id:int}" carries a converter or pattern, which @api does not read. Fix: write "{id}" and declare its type in the path Struct',
    );
    expect(resourceError('/files/{...path}')).toContain('Fix: write the parameter as a slot: "{path}"');
    expect(resourceError('/books/[bookId]')).toContain('Fix: write the parameter as a slot: "{book_id}"');
    expect(resourceError('/books/[...slug]')).toContain('"{slug}"');
    expect(resourceError('/books/<int:book_id>')).toContain('"{book_id}"');
  });

  it('Endpoint refuses them too; text with a colon inside a segment stays text', () => {
    expectWiringError(
      () => Endpoint('/hooks/:source' as '/'),
      'API_WIRING_INVALID_PATH',
      "Endpoint('/hooks/:source')",
    );
    expect(() => Endpoint('/v1/books:batch')).not.toThrow();
    expect(() => Endpoint('/v1/{book_id}')).not.toThrow();
  });

  it("refuses them in an extension's route, naming its owner", async () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(
          defineExtension({
            name: 'files',
            setup: (w) =>
              w.addRoute({
                method: 'GET',
                path: '/files/:name',
                owner: 'files',
                operation: 'read',
                handle: () => undefined,
              }),
          }),
        );
      }
    }
    const error = await new TestClient(new App({ logger: memoryLogger() })).start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WiringError);
    expect(expectWiringError(error, 'API_WIRING_INVALID_PATH', 'files.read: path "/files/:name"').fix).toBe(
      'write the parameter as a slot: "{name}"',
    );
  });
});
