// The body transform example of docs/extensions.md, verbatim (a test checks it).
import { createGzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { defineExtension, type BodyEncoder } from '@api/core/extension';

const gzipped: BodyEncoder = { encode: promisify(gzip), stream: () => createGzip() };

export const gzipEverything = defineExtension({
  name: 'gzip',
  setup: (wiring) =>
    wiring.addContributor(() => ({
      transform: (ex, head) => {
        head.headers.push('vary', 'accept-encoding');
        if (ex.method === 'HEAD' || (head.length !== undefined && head.length < 1024)) return undefined;
        if (!/\bgzip\b/.test(String(ex.req.headers['accept-encoding'] ?? ''))) return undefined;
        head.headers.push('content-encoding', 'gzip');
        return gzipped;
      },
    })),
});
