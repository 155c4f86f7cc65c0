// Unions of tagged Structs as response bodies, over the wire: JSONResponse, a plain `returns`, a
// Resource operation; a value outside the union is a logged 500, never a wrong-shaped body.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, Endpoint, JSONResponse, Resource, Struct } from '../src/index';
import { memoryLogger } from './fixtures';

const Cat = Struct('Cat', { name: v.string(), lives: v.number() }, { tag: true });
const Dog = Struct('Dog', { name: v.string(), goodBoy: v.boolean() }, { tag: true });
const Pet = v.union([Cat, Dog]);
type Pet = v.InferOutput<typeof Pet>;
const PetPath = Struct('PetPath', { pet_id: v.string() });

/** What the handlers return, by id; each carries a field its member does not declare. */
const pets: Record<string, unknown> = {
  cat: { lives: 9, secret: 'tuna', name: 'Tom', type: 'Cat' },
  dog: { goodBoy: true, type: 'Dog', name: 'Rex', secret: 'bone' },
  fish: { type: 'Fish', name: 'Nemo' },
  untagged: { name: 'Tom', lives: 9 },
  half: { type: 'Dog', name: 'Rex' },
};
const pet = (id: string): Pet => pets[id] as Pet;

class PetResponses extends Endpoint('/pets/{pet_id}/response') {
  get = this.operation({ path: PetPath, returns: JSONResponse.of(Pet) }, ({ path }) => {
    return new JSONResponse<Pet>({ json: pet(path.pet_id), statusCode: 203 });
  });
}
class PetPlain extends Endpoint('/pets/{pet_id}/plain') {
  get = this.operation({ path: PetPath, returns: Pet }, ({ path }) => pet(path.pet_id));
}
class PetResource extends Resource('/pets') {
  readMany = this.operation({ returns: v.array(Pet) }, () => [pet('dog'), pet('cat')]);
  readOne = this.operation({ path: PetPath, returns: Pet }, ({ path }) => pet(path.pet_id));
}

class PetIntake extends Endpoint('/pets/intake') {
  post = this.operation({ json: Pet, returns: Pet }, ({ json }) => json);
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new PetIntake());
    this.includeEndpoint(new PetResponses());
    this.includeEndpoint(new PetPlain());
    this.includeResource(new PetResource());
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
async function start(): Promise<{ client: TestClient; log: ReturnType<typeof memoryLogger> }> {
  const log = memoryLogger();
  const client = await TestClient.start(new App({ logger: log }));
  clients.push(client);
  return { client, log };
}

const CAT = '{"type":"Cat","name":"Tom","lives":9}';
const DOG = '{"type":"Dog","name":"Rex","goodBoy":true}';

describe('a union of tagged Structs as a response body', () => {
  it('JSONResponse: each member written by its own serializer, "type" first, declared fields only', async () => {
    const { client, log } = await start();
    const cat = await client.get('/pets/cat/response');
    expect(cat.status).toBe(203);
    expect(cat.headers.get('content-type')).toBe('application/json');
    expect(cat.headers.get('content-length')).toBe(String(CAT.length));
    expect(cat.text).toBe(CAT);
    const dog = await client.get('/pets/dog/response');
    expect(dog.status).toBe(203);
    expect(dog.text).toBe(DOG);
    expect(log.lines).toEqual([]);
  });

  it('a plain `returns` of the union, on an Endpoint and on a Resource (one item, and a list)', async () => {
    const { client } = await start();
    expect((await client.get('/pets/cat/plain')).text).toBe(CAT);
    expect((await client.get('/pets/dog/plain')).text).toBe(DOG);
    const one = await client.get('/pets/dog');
    expect(one.status).toBe(200);
    expect(one.text).toBe(DOG);
    const many = await client.get('/pets');
    expect(many.status).toBe(200);
    expect(many.text).toBe(`[${DOG},${CAT}]`);
  });

  for (const [route, path] of [
    ['JSONResponse', '/pets/fish/response'],
    ['a plain returns', '/pets/fish/plain'],
    ['a Resource', '/pets/fish'],
  ] as const) {
    it(`${route}: a value naming no member is a 500 with one log line (method, path, schema path)`, async () => {
      const { client, log } = await start();
      const res = await client.get(path);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.text).toBe('{"type":"internal-server-error","title":"Internal server error","status":500}');
      expect(log.lines).toEqual([
        `error GET ${path}: the handler's value is not its declared response: the value at \`$.type\` does not match the declared response schema (expected "Cat" | "Dog" (the union's members), got another string)`,
      ]);
    });
  }

  it('a value without its tag, or missing a field of the member it names, is a 500 too', async () => {
    const { client, log } = await start();
    expect((await client.get('/pets/untagged/plain')).status).toBe(500);
    expect((await client.get('/pets/half/response')).status).toBe(500);
    expect(log.lines).toEqual([
      'error GET /pets/untagged/plain: the handler\'s value is not its declared response: the value at `$.type` does not match the declared response schema (expected "Cat" | "Dog" (the union\'s members), got nothing)',
      "error GET /pets/half/response: the handler's value is not its declared response: the value at `$.goodBoy` does not match the declared response schema (expected a value (required field), got undefined)",
    ]);
  });
});

describe('a union of tagged Structs as a request body', () => {
  it('binds either member, and a refusal names the member field that is wrong', async () => {
    const { client } = await start();
    const cat = await client.post('/pets/intake', { json: { type: 'Cat', name: 'Tom', lives: 9, extra: 1 } });
    expect(cat.status).toBe(200);
    expect(cat.text).toBe(CAT);
    const missing = await client.post('/pets/intake', { json: { type: 'Dog', name: 'Rex' } });
    expect(missing.status).toBe(422);
    expect(missing.json()).toMatchObject({ status: 422, detail: 'Missing required field at `$.goodBoy`' });
    const unknown = await client.post('/pets/intake', { json: { type: 'Fish', name: 'Nemo' } });
    expect(unknown.status).toBe(422);
    expect(unknown.json()).toMatchObject({ status: 422 });
    expect((unknown.json() as { detail: string }).detail).toContain('`$.type`');
  });
});
