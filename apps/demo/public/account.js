// The account page: sign-up and sign-in go to Better Auth (mounted at /api/auth); who is signed
// in comes from GET /account, an @api route authenticating Better Auth's session cookie.
const who = document.getElementById('who');
const status = document.getElementById('auth-status');

async function refresh() {
  const res = await fetch('/account');
  if (res.status === 401) {
    who.textContent = 'signed out';
    who.dataset.state = 'signed-out';
    return;
  }
  const account = await res.json();
  who.textContent = `${account.name} <${account.email}>`;
  who.dataset.state = 'signed-in';
}

/** Posts a form's fields as JSON to Better Auth. */
function betterAuth(formId, path) {
  const form = document.getElementById(formId);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = Object.fromEntries(new FormData(form));
    const res = await fetch(`/api/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await res.json().catch(() => ({}));
    status.textContent = res.ok ? `${path}: ok` : `${path}: ${answer.message ?? res.status}`;
    status.dataset.state = res.ok ? 'ok' : 'failed';
    await refresh();
  });
}

betterAuth('sign-up', 'sign-up/email');
betterAuth('sign-in', 'sign-in/email');
await refresh();
document.body.dataset.ready = 'true';
