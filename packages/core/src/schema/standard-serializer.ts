// A Standard Schema response body: validated by the generic path, written with `JSON.stringify`
// (valibot's compiled serializer stays valibot's). A value that does not fit is the same
// `ResponseShapeError` (a logged 500) as valibot's, naming the JSON path.
import type { StandardSchemaV1 } from '../contract/standard-schema';
import { ResponseShapeError } from './response-shape-error';
import { describeIssue } from './standard-issues';

function shapeError(issue: StandardSchemaV1.Issue, value: unknown): ResponseShapeError {
  const { keys, expected, received } = describeIssue(issue, value);
  const error = new ResponseShapeError(expected, received);
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    error.at(typeof key === 'number' ? key : String(key));
  }
  return error;
}

/**
 * The serializer of a Standard Schema: validates the value (synchronously) and writes the schema's
 * output. `strict` (responses): a value that does not fit throws a `ResponseShapeError`; otherwise
 * it is written as it is.
 */
export function standardSerializer(schema: StandardSchemaV1, strict: boolean): (value: unknown) => string {
  const props = schema['~standard'];
  return (value) => {
    const result = props.validate(value);
    if (result instanceof Promise) {
      // A response is written synchronously: an async schema cannot check it. Its own rejection,
      // if any, has nowhere to go but here, where the 500 already says why.
      result.catch(() => undefined);
      if (strict) throw new ResponseShapeError('a schema that validates synchronously', 'a promise');
      return JSON.stringify(value) ?? 'null';
    }
    if (result.issues) {
      if (strict) throw shapeError(result.issues[0]!, value);
      return JSON.stringify(value) ?? 'null';
    }
    return JSON.stringify(result.value) ?? 'null';
  };
}
