import { describe, expect, it } from 'vitest';
import { BUN_HEADER_CAP, DENO_HEADER_CAP, SERVER_HEADER_CAP, serverHeaderCap } from './server-bounds';

describe('serverHeaderCap', () => {
  it("is the runtime server's own cap on Bun and Deno, none elsewhere", () => {
    expect(serverHeaderCap({ node: '22.0.0', bun: '1.4.4' })).toBe(BUN_HEADER_CAP);
    expect(serverHeaderCap({ node: '22.0.0', deno: '2.9.6' })).toBe(DENO_HEADER_CAP);
    expect(serverHeaderCap({ node: '22.0.0' })).toBe(Infinity);
    expect(serverHeaderCap({})).toBe(Infinity);
  });

  it('leaves the default limit (200) to the server on Bun and Deno: both caps are below it', () => {
    expect(BUN_HEADER_CAP).toBe(198);
    expect(DENO_HEADER_CAP).toBe(128);
  });

  it('counts every request on Node (where this suite runs)', () => {
    expect(SERVER_HEADER_CAP).toBe(Infinity);
  });
});
