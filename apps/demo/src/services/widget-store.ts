import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import type * as Sqlite from 'node-sqlite3-wasm';
import { DuplicateNameError } from '../errors';
import type { Widget } from '../models';

interface Row {
  id: string;
  name: string;
  price_cents: number;
}

// node-sqlite3-wasm is CommonJS; load it the same way under Node and under vitest.
const { Database } = createRequire(import.meta.url)('node-sqlite3-wasm') as typeof Sqlite;
type Database = Sqlite.Database;

const toWidget = (row: Row): Widget => ({ id: row.id, name: row.name, priceCents: row.price_cents });

/** Widgets in an embedded SQLite database (a file, or `:memory:`). */
export class WidgetStore {
  readonly #db: Database;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.#db = new Database(file);
    this.#db.exec(`create table if not exists widgets (
      id text primary key,
      name text not null unique,
      price_cents integer not null,
      created_at integer not null
    )`);
  }

  #write(sql: string, values: (string | number)[], name: string): void {
    try {
      this.#db.run(sql, values);
    } catch (error) {
      if (error instanceof Error && error.message.includes('UNIQUE constraint failed: widgets.name'))
        throw new DuplicateNameError(name);
      throw error;
    }
  }

  create(input: { name: string; priceCents: number }): Widget {
    const id = randomUUID();
    this.#write(
      'insert into widgets (id, name, price_cents, created_at) values (?, ?, ?, ?)',
      [id, input.name, input.priceCents, Date.now()],
      input.name,
    );
    return { id, ...input };
  }

  list(limit: number, offset: number): Widget[] {
    return (
      // In creation order: widgets created in the same millisecond by insertion (rowid), not by their random ids.
      (
        this.#db.all(
          'select id, name, price_cents from widgets order by created_at, rowid limit ? offset ?',
          [limit, offset],
        ) as unknown as Row[]
      ).map(toWidget)
    );
  }

  get(id: string): Widget | undefined {
    const row = this.#db.get('select id, name, price_cents from widgets where id = ?', [
      id,
    ]) as unknown as Row | null;
    return row ? toWidget(row) : undefined;
  }

  replace(id: string, input: { name: string; priceCents: number }): Widget | undefined {
    if (!this.get(id)) return undefined;
    this.#write(
      'update widgets set name = ?, price_cents = ? where id = ?',
      [input.name, input.priceCents, id],
      input.name,
    );
    return { id, ...input };
  }

  update(
    id: string,
    patch: { name?: string | undefined; priceCents?: number | undefined },
  ): Widget | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    return this.replace(id, {
      name: patch.name ?? current.name,
      priceCents: patch.priceCents ?? current.priceCents,
    });
  }

  delete(id: string): boolean {
    if (!this.get(id)) return false;
    this.#db.run('delete from widgets where id = ?', [id]);
    return true;
  }

  get isOpen(): boolean {
    return this.#db.isOpen;
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
