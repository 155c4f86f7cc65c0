import { describe, expect, it } from 'vitest';
import { buildMultipart, headerPairs } from './build-multipart';

describe('buildMultipart', () => {
  it('writes fields, then files, each as a part, with the boundary in the content type', () => {
    const { contentType, body } = buildMultipart(
      { title: 'T', tags: ['a', 'b'] },
      {
        avatar: {
          filename: 'me.png',
          content: new Uint8Array([1, 2]),
          contentType: 'image/png',
          headers: [['X-Sum', 'c1']],
        },
        doc: { filename: 'a "q".txt', content: 'hi' },
      },
      'B',
    );
    expect(contentType).toBe('multipart/form-data; boundary=B');
    expect(body.toString('latin1')).toBe(
      [
        '--B\r\nContent-Disposition: form-data; name="title"\r\n\r\nT\r\n',
        '--B\r\nContent-Disposition: form-data; name="tags"\r\n\r\na\r\n',
        '--B\r\nContent-Disposition: form-data; name="tags"\r\n\r\nb\r\n',
        '--B\r\nContent-Disposition: form-data; name="avatar"; filename="me.png"\r\nContent-Type: image/png\r\nX-Sum: c1\r\n\r\n\x01\x02\r\n',
        '--B\r\nContent-Disposition: form-data; name="doc"; filename="a \\"q\\".txt"\r\nContent-Type: application/octet-stream\r\n\r\nhi\r\n',
        '--B--\r\n',
      ].join(''),
    );
  });

  it('sends a list of files under one name as repeated parts', () => {
    const { body } = buildMultipart(
      undefined,
      {
        f: [
          { filename: '1', content: 'x' },
          { filename: '2', content: 'y' },
        ],
      },
      'B',
    );
    expect(body.toString().match(/name="f"/g)).toHaveLength(2);
  });

  it('picks a fresh random boundary by default', () => {
    const a = buildMultipart({ x: '1' }, undefined).contentType;
    const b = buildMultipart({ x: '1' }, undefined).contentType;
    expect(a).toMatch(/^multipart\/form-data; boundary=----api-testing-[0-9a-f]{24}$/);
    expect(a).not.toBe(b);
  });
});

describe('headerPairs', () => {
  it('keeps repeats and as-written names from a pair list, and record order', () => {
    expect(
      headerPairs([
        ['X-A', '1'],
        ['x-a', '2'],
      ]),
    ).toEqual([
      ['X-A', '1'],
      ['x-a', '2'],
    ]);
    expect(headerPairs({ B: '1', a: '2' })).toEqual([
      ['B', '1'],
      ['a', '2'],
    ]);
    expect(headerPairs(undefined)).toEqual([]);
  });
});
