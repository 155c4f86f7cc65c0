import { BaseHTTPError } from '../errors/base-http-error';

/**
 * What a failing dynamic-header hook becomes: an HTTP error as it is (the hook's own headers
 * failing to bind are the 400 Problem); anything else a 500 whose log line names the hook.
 */
export function hookFailure(error: unknown): unknown {
  if (error instanceof BaseHTTPError) return error;
  return new Error(
    `a response-header hook failed: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
