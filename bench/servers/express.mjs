// Express 5, validated with valibot (safeParse). ETag and x-powered-by are off (no other framework here sends them).
import express from 'express';
import * as v from 'valibot';
import { fileURLToPath } from 'node:url';
import { Movie, ItemPath, ItemQuery, issuesOf } from './schemas.mjs';

const AUTH = 'Bearer bench-token';
let nextId = 1;

export const app = express();
app.disable('x-powered-by');
app.set('etag', false);

app.get('/info', (req, res) => {
  res.set('x-app', 'bench');
  res.json({ name: 'bench', version: '1.0.0', uptime: process.uptime() });
});

app.post(
  '/movies',
  (req, res, next) => {
    if (req.headers.authorization !== AUTH) {
      res.status(401).set('www-authenticate', 'Bearer').json({ error: 'unauthorized' });
      return;
    }
    next();
  },
  express.json(),
  (req, res) => {
    const r = v.safeParse(Movie, req.body);
    if (!r.success) {
      res.status(422).json({ error: 'validation', issues: issuesOf(r.issues) });
      return;
    }
    res.status(201).json({ id: nextId++, ...r.output });
  },
);

app.get('/items/:item_id', (req, res) => {
  const p = v.safeParse(ItemPath, req.params);
  const q = v.safeParse(ItemQuery, req.query);
  if (!p.success || !q.success) {
    res
      .status(422)
      .json({ error: 'validation', issues: issuesOf([...(p.issues ?? []), ...(q.issues ?? [])]) });
    return;
  }
  res.json({ itemId: p.output.item_id, limit: q.output.limit });
});

app.use((req, res) => {
  res.status(404).json({ error: 'not found' });
});

// eslint-disable-next-line no-unused-vars
app.use((err, req, res, next) => {
  res.status(err.status ?? 500).json({ error: err.message });
});

/** The node:http (req, res) listener, for the in-process micro-benchmark. */
export const listener = app;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1', () => console.log('ready'));
}
