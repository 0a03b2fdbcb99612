// Sign-in with an operator token (OPS_TOKENS). The token is checked against the API before it is
// kept; a wrong one is named plainly.
import { useState } from 'preact/hooks';
import { ApiError, gql } from '../lib/api.js';
import { setToken, VIEWER_QUERY, type Viewer } from '../lib/session.js';
import { useI18n, type MessageKey } from '../lib/i18n.js';
import { LanguageSwitch } from '../components/LanguageSwitch.js';

export function SignIn(p: { reason?: 'rejected' | 'signed-out' | undefined; onSignedIn: (v: Viewer) => void }) {
  const { t } = useI18n();
  const [token, setValue] = useState('');
  // A catalogue key, so the message follows a language switch; other errors are the server's text.
  const [error, setError] = useState<{ key: MessageKey } | { text: string } | null>(
    p.reason === 'rejected' ? { key: 'signin.rejected' } : null,
  );
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const entered = token.trim();
    if (!entered) return setError({ key: 'signin.empty' });
    setBusy(true);
    setError(null);
    try {
      const { viewer } = await gql(VIEWER_QUERY, {}, entered);
      setToken(entered);
      p.onSignedIn(viewer);
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === 'UNAUTHENTICATED'
          ? { key: 'signin.notAccepted' }
          : { text: err instanceof Error ? err.message : String(err) },
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
            <div class="brand-name">{t('app.name')}</div>
            <div class="brand-sub">{t('app.sub')}</div>
          </div>
        </div>
        <label class="field">
          <span>{t('signin.token')}</span>
          <input
            type="password"
            name="token"
            autoComplete="current-password"
            placeholder={t('signin.placeholder')}
            value={token}
            onInput={(e) => setValue(e.currentTarget.value)}
            autoFocus
          />
        </label>
        {error && (
          <div class="error-box" role="alert" data-testid="signin-error">
            {'key' in error ? t(error.key) : error.text}
          </div>
        )}
        <button class="primary" type="submit" disabled={busy}>
          {busy ? t('signin.checking') : t('signin.submit')}
        </button>
        <p class="muted small">{t('signin.roles')}</p>
        <LanguageSwitch />
      </form>
    </div>
  );
}
