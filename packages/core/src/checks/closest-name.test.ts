import { describe, expect, it } from 'vitest';
import { closestName } from './closest-name';

describe('closestName', () => {
  it('finds a likely typo, case-insensitively, and nothing for a different word', () => {
    expect(closestName('alowOrigins', ['allowOrigins', 'maxAge'])).toBe('allowOrigins');
    expect(closestName('MAXAGE', ['allowOrigins', 'maxAge'])).toBe('maxAge');
    expect(closestName('realm', ['headers', 'user', 'authenticate'])).toBeUndefined();
  });
});
