import { describe, expect, it } from 'vitest';
import { MalformedRequestError } from '../errors/builtin';
import { badRequest } from './bad-request';

describe('badRequest', () => {
  it('is the 400 core sends for one field: the reason names the path, issues list it', () => {
    const error = badRequest('header authorization', 'Expected one value, got 2');
    expect(error).toBeInstanceOf(MalformedRequestError);
    expect(error.status).toBe(400);
    expect(error.params).toEqual({
      reason: 'Expected one value, got 2 at `header authorization`',
      issues: [{ path: 'header authorization', message: 'Expected one value, got 2' }],
    });
  });
});
