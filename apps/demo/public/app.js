// The demo page's script: plain fetch against the API this page is served beside.
// The token is the demo's fixed bearer token (see apps/demo/src/app.ts); never do this in production.
const TOKEN = 'token';
const auth = { authorization: `Bearer ${TOKEN}` };

const $ = (id) => document.getElementById(id);
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Fetches JSON; a non-2xx answer becomes an Error carrying the Problem body's title. */
async function api(path, init = {}) {
  const res = await fetch(path, {
    ...init,
    headers: { accept: 'application/json', ...auth, ...init.headers },
  });
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.title ? `${res.status} ${body.title}` : `HTTP ${res.status}`);
  return body;
}

async function health() {
  const el = $('health');
  try {
    const { status } = await api('/healthz');
    el.textContent = `API ${status}`;
    el.dataset.state = status === 'ok' ? 'ok' : 'down';
  } catch (error) {
    el.textContent = `API unreachable (${error.message})`;
    el.dataset.state = 'down';
  }
}

function row(cells, className) {
  const tr = document.createElement('tr');
  if (className) tr.className = className;
  for (const { text, num, span } of cells) {
    const td = document.createElement('td');
    td.textContent = text;
    if (num) td.className = 'num';
    if (span) td.colSpan = span;
    tr.append(td);
  }
  return tr;
}

async function list() {
  const body = $('widgets');
  try {
    const widgets = await api('/widgets?limit=100');
    body.replaceChildren(
      ...(widgets.length === 0
        ? [row([{ text: 'No widgets yet: add one.', span: 3 }], 'empty')]
        : widgets.map((w) =>
            row([{ text: w.name }, { text: money.format(w.priceCents / 100), num: true }, { text: w.id }]),
          )),
    );
  } catch (error) {
    body.replaceChildren(row([{ text: `Could not load widgets: ${error.message}`, span: 3 }], 'empty'));
  }
}

async function create(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const out = $('result');
  const data = new FormData(form);
  const name = String(data.get('name') ?? '').trim();
  const priceCents = Number(data.get('priceCents'));
  if (!name || !Number.isInteger(priceCents) || priceCents < 0) {
    out.textContent = 'A name and a whole, non-negative price in cents, please.';
    out.dataset.state = 'error';
    return;
  }
  try {
    const widget = await api('/widgets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, priceCents }),
    });
    out.textContent = `Created ${widget.name} (${widget.id}).`;
    out.dataset.state = 'ok';
    form.reset();
    await list();
  } catch (error) {
    out.textContent = `Not created: ${error.message}`;
    out.dataset.state = 'error';
  }
}

$('create').addEventListener('submit', create);
$('refresh').addEventListener('click', () => void list());
await Promise.all([health(), list()]);
document.body.dataset.ready = 'true';
