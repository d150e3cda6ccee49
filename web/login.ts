import { el } from './svg.js';

/**
 * Asks for the token of a service started with `--token`, once a tab (docs/editor.md): the page trades it at
 * `/walker/login` for an HttpOnly cookie, which every request of the page and its event streams then carries.
 * Resolves true when the page may go on, false when it shows the login form instead.
 */
export async function loggedIn(body: HTMLElement): Promise<boolean> {
  let state: { required: boolean; authorized: boolean };
  try {
    const response = await fetch('walker/login');
    // A service older than the login, or one that refuses the page: the page goes on and says what it hears.
    if (!response.ok) return true;
    state = (await response.json()) as typeof state;
  } catch {
    return true;
  }
  if (!state.required || state.authorized) return true;
  const form = el('form', 'login');
  form.dataset.testid = 'login';
  const label = el('label', '');
  label.textContent = 'This service asks for its token (--token): ';
  const input = el('input', '');
  input.type = 'password';
  input.autocomplete = 'current-password';
  input.dataset.testid = 'login-token';
  input.setAttribute('aria-label', 'Token');
  label.append(input);
  const submit = el('button', '');
  submit.type = 'submit';
  submit.textContent = 'Log in';
  submit.dataset.testid = 'login-submit';
  const error = el('p', 'field-error');
  error.dataset.testid = 'login-error';
  error.setAttribute('role', 'alert');
  form.append(label, submit, error);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void fetch('walker/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: input.value }) }).then(async (response) => {
      if (response.ok) return location.reload();
      error.textContent = ((await response.json()) as { message?: string }).message ?? `${response.status}`;
    });
  });
  body.append(form);
  input.focus();
  return false;
}
