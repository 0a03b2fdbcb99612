// A web token right after it was issued: shown this once (the gateway keeps only its hash), with
// a copy button and a warning. Dismissing it removes it from the page for good.
import { useState } from 'preact/hooks';
import { useI18n } from '../../lib/i18n.js';

export function IssuedToken(p: { name: string; token: string; onDismiss: () => void }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(p.token);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the operator selects it by hand.
      setCopied(false);
    }
  };
  return (
    <div class="issued-token" role="status" data-testid="issued-token">
      <strong>{t('setup.tokens.issuedFor', { name: p.name })}</strong>
      <div class="warn-text">{t('setup.tokens.onceWarning')}</div>
      <div class="row">
        <code class="token-value" data-testid="issued-token-value">
          {p.token}
        </code>
        <button type="button" class="small" onClick={() => void copy()} data-testid="issued-token-copy">
          {t('setup.tokens.copy')}
        </button>
        {copied === true && <span class="ok-text">{t('setup.tokens.copied')}</span>}
        {copied === false && <span class="muted small">{t('setup.tokens.copyFailed')}</span>}
      </div>
      <button type="button" class="small" onClick={p.onDismiss}>
        {t('setup.tokens.dismiss')}
      </button>
    </div>
  );
}
