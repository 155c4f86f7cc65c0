// The widgets panels: health, the catalogue (GET /widgets) and the create form (POST /widgets).
import { api, describeFailure } from './api';

const $ = (id: string): HTMLElement => document.getElementById(id)!;
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

async function health(): Promise<void> {
  const el = $('health');
  const answer = await api.health.get().catch((error: unknown) => error as Error);
  if (answer instanceof Error || !answer.ok) {
    el.textContent = `API unreachable (${answer instanceof Error ? answer.message : describeFailure(answer)})`;
    el.dataset.state = 'down';
    return;
  }
  el.textContent = `API ${answer.data.status}`;
  el.dataset.state = answer.data.status === 'ok' ? 'ok' : 'down';
}

function row(cells: readonly { text: string; num?: boolean; span?: number }[], className?: string) {
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

export async function list(): Promise<void> {
  const body = $('widgets');
  const answer = await api.widgets.readMany({ params: { limit: 100 } });
  if (!answer.ok) {
    body.replaceChildren(
      row([{ text: `Could not load widgets: ${describeFailure(answer)}`, span: 3 }], 'empty'),
    );
    return;
  }
  body.replaceChildren(
    ...(answer.data.length === 0
      ? [row([{ text: 'No widgets yet: add one.', span: 3 }], 'empty')]
      : answer.data.map((w) =>
          row([{ text: w.name }, { text: money.format(w.priceCents / 100), num: true }, { text: w.id }]),
        )),
  );
}

async function create(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  const out = $('result');
  const data = new FormData(form);
  const givenName = data.get('name');
  const name = typeof givenName === 'string' ? givenName.trim() : '';
  const priceCents = Number(data.get('priceCents'));
  if (!name || !Number.isInteger(priceCents) || priceCents < 0) {
    out.textContent = 'A name and a whole, non-negative price in cents, please.';
    out.dataset.state = 'error';
    return;
  }
  const answer = await api.widgets.create({ json: { name, priceCents } });
  if (answer.ok) {
    out.textContent = `Created ${answer.data.name} (${answer.data.id}).`;
    out.dataset.state = 'ok';
    form.reset();
    await list();
  } else {
    // 409: the name is taken; 422: a field the server refused (named in the Problem's reason).
    const why =
      answer.status === 422 ? `${describeFailure(answer)}: ${answer.error.detail}` : describeFailure(answer);
    out.textContent = `Not created: ${why}`;
    out.dataset.state = 'error';
  }
}

/** Wires the panels and loads them. */
export async function startWidgets(): Promise<void> {
  $('create').addEventListener('submit', (event) => void create(event));
  $('refresh').addEventListener('click', () => void list());
  await Promise.all([health(), list()]);
}
