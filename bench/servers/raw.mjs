// raw node:http: hand-written routing, validation and serialization. The ceiling.
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const AUTH = 'Bearer bench-token';
const JSON_TYPE = 'application/json';
let nextId = 1;

function send(res, status, body, extraHeaders) {
  const headers = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) };
  if (extraHeaders !== undefined) Object.assign(headers, extraHeaders);
  res.writeHead(status, headers);
  res.end(body);
}

const NOT_FOUND = '{"error":"not found"}';
const UNAUTHORIZED = '{"error":"unauthorized"}';
const validationError = (issues) => JSON.stringify({ error: 'validation', issues });

// Integer coercion for path/query strings (same rule as valibot's toNumber + integer).
function toInt(s) {
  if (s === undefined || s === '') return NaN;
  const n = Number(s);
  return Number.isInteger(n) ? n : NaN;
}

function validateMovie(m) {
  const issues = [];
  if (m === null || typeof m !== 'object' || Array.isArray(m)) {
    issues.push({ path: '', message: 'expected object' });
    return issues;
  }
  const { title, year, rating, genres, released } = m;
  if (typeof title !== 'string' || title.length < 1 || title.length > 200)
    issues.push({ path: 'title', message: 'expected string of length 1..200' });
  if (typeof year !== 'number' || !Number.isInteger(year) || year < 1888 || year > 2100)
    issues.push({ path: 'year', message: 'expected integer 1888..2100' });
  if (typeof rating !== 'number' || !(rating >= 0 && rating <= 10))
    issues.push({ path: 'rating', message: 'expected number 0..10' });
  if (!Array.isArray(genres) || genres.length > 10) {
    issues.push({ path: 'genres', message: 'expected array of at most 10 strings' });
  } else {
    for (let i = 0; i < genres.length; i++) {
      if (typeof genres[i] !== 'string') issues.push({ path: `genres.${i}`, message: 'expected string' });
    }
  }
  if (typeof released !== 'boolean') issues.push({ path: 'released', message: 'expected boolean' });
  return issues;
}

function info(res) {
  send(res, 200, JSON.stringify({ name: 'bench', version: '1.0.0', uptime: process.uptime() }), {
    'x-app': 'bench',
  });
}

function movies(req, res) {
  if (req.headers.authorization !== AUTH) {
    req.resume();
    send(res, 401, UNAUTHORIZED, { 'www-authenticate': 'Bearer' });
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let m;
    try {
      m = JSON.parse(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    } catch {
      send(res, 400, '{"error":"malformed json"}');
      return;
    }
    const issues = validateMovie(m);
    if (issues.length > 0) {
      send(res, 422, validationError(issues));
      return;
    }
    // Emit exactly the declared fields, in order (no extra properties leak).
    const out = {
      id: nextId++,
      title: m.title,
      year: m.year,
      rating: m.rating,
      genres: m.genres,
      released: m.released,
    };
    send(res, 201, JSON.stringify(out));
  });
}

function items(res, idStr, query) {
  const itemId = toInt(idStr);
  let limit = 10;
  if (query !== '') {
    const params = new URLSearchParams(query);
    const l = params.get('limit');
    if (l !== null) limit = toInt(l);
  }
  const issues = [];
  if (Number.isNaN(itemId)) issues.push({ path: 'item_id', message: 'expected integer' });
  if (Number.isNaN(limit) || limit < 1 || limit > 100)
    issues.push({ path: 'limit', message: 'expected integer 1..100' });
  if (issues.length > 0) {
    send(res, 422, validationError(issues));
    return;
  }
  send(res, 200, JSON.stringify({ itemId, limit }));
}

export function handler(req, res) {
  const url = req.url;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const method = req.method;
  if (method === 'GET') {
    if (path === '/info') return info(res);
    if (path.startsWith('/items/')) {
      const id = path.slice(7);
      if (id !== '' && id.indexOf('/') === -1)
        return items(res, decodeURIComponent(id), q === -1 ? '' : url.slice(q + 1));
    }
  } else if (method === 'POST' && path === '/movies') {
    return movies(req, res);
  }
  req.resume();
  send(res, 404, NOT_FOUND);
}

/** The node:http (req, res) listener, for the in-process micro-benchmark. */
export const listener = handler;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = http.createServer(handler);
  server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1', () => console.log('ready'));
}
