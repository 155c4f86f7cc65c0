// Validates an OpenAPI document with two independent validators:
// @seriousme/openapi-schema-validator (the OAS meta-schema) and @hyperjump/json-schema (the
// openapi-3-1 dialect, which also checks every Schema Object, e.g. bad `type` values).
import { Validator } from '@seriousme/openapi-schema-validator';
import { validate as validate31 } from '@hyperjump/json-schema/openapi-3-1';
import { validate as validate32 } from '@hyperjump/json-schema/openapi-3-2';
import { BASIC } from '@hyperjump/json-schema/experimental';
import type { OutputUnit } from '@hyperjump/json-schema/openapi-3-1';

/** An OpenAPI document as JSON data. */
export type Document = { readonly openapi: string } & Record<string, unknown>;

/** Fetches the served document (`GET <baseUrl><path>`). */
export async function fetchDocument(baseUrl: string, path = '/openapi.json'): Promise<Document> {
  const res = await fetch(new URL(path, baseUrl));
  if (res.status !== 200) throw new Error(`GET ${path}: status ${res.status}`);
  return (await res.json()) as Document;
}

/** The outcome of one validator: `errors` is empty when the document is valid. */
export interface ValidatorReport {
  readonly validator: string;
  readonly valid: boolean;
  readonly errors: readonly string[];
}

/** @seriousme/openapi-schema-validator (OAS 3.1 / 3.2 meta-schemas). */
export async function validateWithSeriousme(document: Document): Promise<ValidatorReport> {
  const validator = new Validator();
  // The validator keeps (and may mutate) what it is given: pass a copy.
  const result = await validator.validate(structuredClone(document) as never);
  const errors = result.valid ? [] : [JSON.stringify(result.errors, null, 2)];
  return { validator: '@seriousme/openapi-schema-validator', valid: result.valid, errors };
}

function flatten(units: readonly OutputUnit[] | undefined): string[] {
  return (units ?? []).map((u) => `${u.instanceLocation}: ${u.keyword} (${u.absoluteKeywordLocation})`);
}

/** @hyperjump/json-schema against the version's `schema-base` (document + OAS schema dialect). */
export async function validateWithHyperjump(document: Document): Promise<ValidatorReport> {
  const is32 = document.openapi.startsWith('3.2.');
  const schema = is32
    ? 'https://spec.openapis.org/oas/3.2/schema-base'
    : 'https://spec.openapis.org/oas/3.1/schema-base';
  const output = is32
    ? await validate32(schema, structuredClone(document) as never, BASIC)
    : await validate31(schema, structuredClone(document) as never, BASIC);
  return {
    validator: `@hyperjump/json-schema (${is32 ? 'openapi-3-2' : 'openapi-3-1'})`,
    valid: output.valid,
    errors: output.valid ? [] : flatten(output.errors),
  };
}

/** Runs both validators; resolves with both reports (assert `valid` on each). */
export async function validateDocument(document: Document): Promise<readonly ValidatorReport[]> {
  return [await validateWithSeriousme(document), await validateWithHyperjump(document)];
}
