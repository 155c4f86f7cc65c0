import { describe, expect, it } from 'vitest';
import { toHeaderName } from './index';

describe('toHeaderName', () => {
  it.each([
    ['xTraceId', 'x-trace-id'],
    ['x_trace_id', 'x-trace-id'],
    ['x-trace-id', 'x-trace-id'],
    ['authorization', 'authorization'],
    ['Authorization', 'authorization'],
    ['contentMD5', 'content-md5'],
    ['contentType', 'content-type'],
    ['XMLHttpRequest', 'xml-http-request'],
    ['wwwAuthenticate', 'www-authenticate'],
    ['X_Api_Key', 'x-api-key'],
    ['md5Hash', 'md5-hash'],
    ['etag', 'etag'],
  ])('%s → %s', (field, wire) => {
    expect(toHeaderName(field)).toBe(wire);
  });
});
