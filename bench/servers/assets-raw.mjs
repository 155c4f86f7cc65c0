// raw node:http, in memory: the file read once with a precomputed strong ETag; one exact route,
// If-None-Match by equality, flat header arrays. The ceiling for serving a file from memory.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

const body = readFileSync(join(process.env.ASSETS_DIR, 'site.css'));
const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
const PATH = '/assets/site.css';

http
  .createServer((req, res) => {
    if (req.url !== PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, ['content-length', '0']);
      res.end();
      return;
    }
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, ['etag', etag]);
      res.end();
      return;
    }
    res.writeHead(200, [
      'content-type',
      'text/css; charset=utf-8',
      'etag',
      etag,
      'content-length',
      String(body.length),
    ]);
    res.end(req.method === 'HEAD' ? undefined : body);
  })
  .listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1', () => console.log('ready'));
