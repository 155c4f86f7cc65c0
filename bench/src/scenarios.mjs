// Scenarios (what is timed) and checks (what every server must answer before it is timed).
export const TOKEN = 'bench-token';
export const AUTH = `Bearer ${TOKEN}`;

export const MOVIE = {
  title: 'The Bench',
  year: 1999,
  rating: 8.5,
  genres: ['drama', 'sci-fi'],
  released: true,
};
export const INVALID_MOVIE = {
  title: 'The Bench',
  year: 1700,
  rating: 8.5,
  genres: ['drama'],
  released: true,
};

/** Timed scenarios. `expect` is the status every timed response must have (checked from wrk's summary). */
export const SCENARIOS = [
  { name: 'info', label: 'GET /info', method: 'GET', path: '/info', expect: 200 },
  {
    name: 'movies',
    label: 'POST /movies (auth + validated body)',
    method: 'POST',
    path: '/movies',
    body: MOVIE,
    auth: AUTH,
    expect: 201,
  },
  {
    name: 'items',
    label: 'GET /items/{item_id}?limit=10',
    method: 'GET',
    path: '/items/42?limit=10',
    expect: 200,
  },
  { name: 'notfound', label: 'GET unknown path (404)', method: 'GET', path: '/no/such/path', expect: 404 },
  {
    name: 'invalid',
    label: 'POST /movies invalid body (422)',
    method: 'POST',
    path: '/movies',
    body: INVALID_MOVIE,
    auth: AUTH,
    expect: 422,
  },
];

const isJson = (h) => /^application\/(problem\+)?json\b/.test(h.get('content-type') ?? '');
const jsonObj = (b) => b !== null && typeof b === 'object' && !Array.isArray(b);

/**
 * Each check: a request and a predicate over { status, headers, body(parsed or text) } returning
 * an error string or null (`advisory` checks only warn: the server is still timed). Bodies of successful responses are compared exactly, key order included.
 */
/**
 * Whether a wrk summary of `scenario` has the statuses it expects: no non-2xx/3xx answer for a
 * success scenario, nothing but its error status for an error one (wrk counts both as `status`).
 */
export const statusesAsExpected = (scenario, w) =>
  scenario.expect < 400 ? w.errors.status === 0 : w.errors.status === w.requests;

export const CHECKS = [
  {
    name: 'GET /info',
    req: { method: 'GET', path: '/info' },
    check: ({ status, headers, body }) => {
      if (status !== 200) return `status ${status}, want 200`;
      if (headers.get('x-app') !== 'bench')
        return `x-app header ${JSON.stringify(headers.get('x-app'))}, want "bench"`;
      if (!isJson(headers)) return `content-type ${headers.get('content-type')}`;
      if (!jsonObj(body) || Object.keys(body).join(',') !== 'name,version,uptime')
        return `keys ${JSON.stringify(body)}`;
      if (body.name !== 'bench' || body.version !== '1.0.0' || typeof body.uptime !== 'number')
        return `body ${JSON.stringify(body)}`;
      return null;
    },
  },
  {
    name: 'POST /movies valid → 201 echo + id',
    req: { method: 'POST', path: '/movies', auth: AUTH, body: MOVIE },
    check: ({ status, headers, body }) => {
      if (status !== 201) return `status ${status}, want 201: ${JSON.stringify(body)}`;
      if (!isJson(headers)) return `content-type ${headers.get('content-type')}`;
      if (!jsonObj(body) || !Number.isInteger(body.id))
        return `id missing or not an integer: ${JSON.stringify(body)}`;
      const want = JSON.stringify({ id: body.id, ...MOVIE });
      if (JSON.stringify(body) !== want) return `body ${JSON.stringify(body)}, want ${want}`;
      return null;
    },
  },
  {
    name: 'POST /movies extra property is not echoed',
    req: { method: 'POST', path: '/movies', auth: AUTH, body: { ...MOVIE, secret: 'leak' } },
    check: ({ status, body }) => {
      if (status !== 201 && status !== 422) return `status ${status}, want 201 (stripped) or 422 (rejected)`;
      if (status === 201 && 'secret' in body) return `extra property leaked: ${JSON.stringify(body)}`;
      return null;
    },
  },
  ...[
    ['no authorization', undefined],
    ['wrong token', 'Bearer nope'],
  ].map(([what, auth]) => ({
    name: `POST /movies ${what} → 401`,
    req: { method: 'POST', path: '/movies', auth, body: MOVIE },
    check: ({ status }) => (status === 401 ? null : `status ${status}, want 401`),
  })),
  ...[
    ['year 1700', INVALID_MOVIE],
    ['year 1999.5', { ...MOVIE, year: 1999.5 }],
    ['empty title', { ...MOVIE, title: '' }],
    ['title 201 chars', { ...MOVIE, title: 'x'.repeat(201) }],
    ['rating 11', { ...MOVIE, rating: 11 }],
    ['11 genres', { ...MOVIE, genres: Array.from({ length: 11 }, (_, i) => `g${i}`) }],
    // Advisory: Fastify's default ajv (coerceTypes: 'array') turns 1 into "1" and accepts it.
    ['genre not a string', { ...MOVIE, genres: [1] }, true],
    ['released missing', (({ released, ...m }) => (void released, m))(MOVIE)],
  ].map(([what, body, advisory]) => ({
    name: `POST /movies ${what} → 422`,
    advisory,
    req: { method: 'POST', path: '/movies', auth: AUTH, body },
    check: ({ status, headers }) =>
      status !== 422
        ? `status ${status}, want 422`
        : isJson(headers)
          ? null
          : `content-type ${headers.get('content-type')}`,
  })),
  {
    name: 'GET /items/42?limit=10',
    req: { method: 'GET', path: '/items/42?limit=10' },
    check: ({ status, headers, body }) => {
      if (status !== 200) return `status ${status}, want 200`;
      if (!isJson(headers)) return `content-type ${headers.get('content-type')}`;
      return JSON.stringify(body) === '{"itemId":42,"limit":10}' ? null : `body ${JSON.stringify(body)}`;
    },
  },
  {
    name: 'GET /items/7?limit=25',
    req: { method: 'GET', path: '/items/7?limit=25' },
    check: ({ status, body }) =>
      status === 200 && JSON.stringify(body) === '{"itemId":7,"limit":25}'
        ? null
        : `${status} ${JSON.stringify(body)}`,
  },
  // Frameworks differ in the code (Fastify/Hono/Express/raw: 422 or 400; @api: 404 for a path value that fails
  // conversion and 400 for a bad query, as its spec says); every one must refuse with a 4xx, never 2xx/5xx.
  ...['/items/abc?limit=10', '/items/4.5?limit=10', '/items/42?limit=x'].map((path) => ({
    name: `GET ${path} → refused (4xx)`,
    req: { method: 'GET', path },
    check: ({ status }) => (status >= 400 && status < 500 ? null : `status ${status}, want a 4xx refusal`),
  })),
  {
    name: 'GET unknown path → 404',
    req: { method: 'GET', path: '/no/such/path' },
    check: ({ status }) => (status === 404 ? null : `status ${status}, want 404`),
  },
];

export async function runChecks(baseUrl) {
  const failures = [];
  const warnings = [];
  for (const c of CHECKS) {
    const headers = {};
    if (c.req.auth) headers.authorization = c.req.auth;
    if (c.req.body !== undefined) headers['content-type'] = 'application/json';
    let res;
    try {
      res = await fetch(baseUrl + c.req.path, {
        method: c.req.method,
        headers,
        body: c.req.body === undefined ? undefined : JSON.stringify(c.req.body),
      });
    } catch (e) {
      failures.push(`${c.name}: ${e.message}`);
      continue;
    }
    const text = await res.text();
    let body = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* keep text */
    }
    const err = c.check({ status: res.status, headers: res.headers, body });
    if (err) (c.advisory ? warnings : failures).push(`${c.name}: ${err}`);
  }
  return { total: CHECKS.length, failures, warnings };
}
