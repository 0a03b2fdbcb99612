// Sign-in with an operator token (OPS_TOKENS). The token is checked against the API before it is
// kept; a wrong one is named plainly.
import { useState } from 'preact/hooks';
import { ApiError, gql } from '../lib/api.js';
import { setToken, type Viewer } from '../lib/session.js';

export const VIEWER_QUERY = 'query Viewer { viewer { name role timezone } }';

export function SignIn(p: { reason?: 'rejected' | 'signed-out' | undefined; onSignedIn: (v: Viewer) => void }) {
  const [token, setValue] = useState('');
  const [error, setError] = useState<string | null>(
    p.reason === 'rejected' ? 'Your token is no longer accepted. Sign in again.' : null,
  );
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const t = token.trim();
    if (!t) return setError('Enter a token.');
    setBusy(true);
    setError(null);
    try {
      const { viewer } = await gql<{ viewer: Viewer }>(VIEWER_QUERY, {}, t);
      setToken(t);
      p.onSignedIn(viewer);
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === 'UNAUTHENTICATED'
          ? 'That token was not accepted. Check it against OPS_TOKENS (name:role:token).'
          : err instanceof Error
            ? err.message
            : String(err),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="signin">
      <form class="signin-card" onSubmit={submit}>
        <div class="brand">
          <span class="logo" aria-hidden="true" />
          <div>
            <div class="brand-name">Rainbow Gateway</div>
            <div class="brand-sub">Operator console</div>
          </div>
        </div>
        <label class="field">
          <span>Operator token</span>
          <input
            type="password"
            name="token"
            autoComplete="current-password"
            placeholder="a token from OPS_TOKENS"
            value={token}
            onInput={(e) => setValue(e.currentTarget.value)}
            autoFocus
          />
        </label>
        {error && (
          <div class="error-box" role="alert" data-testid="signin-error">
            {error}
          </div>
        )}
        <button class="primary" type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <p class="muted small">
          Viewers can read everything; operators can also act on dialogues, memories and knowledge; admins can change
          the config. The token stays in this browser only.
        </p>
      </form>
    </div>
  );
}
