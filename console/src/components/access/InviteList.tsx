// The invite codes (admins only): each with its Telegram link to copy, uses of its maximum, its
// expiry and whether it still lets anyone in; Revoke asks first.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../../lib/api.js';
import { REVOKE_INVITE, type InviteView } from '../../lib/accessQueries.js';
import { useI18n } from '../../lib/i18n.js';
import { useCan } from '../../lib/viewerContext.js';
import { Badge, Empty, Time } from '../ui.js';

function CopyLink(p: { link: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(p.link);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the link is there to select.
      setCopied(false);
    }
  };
  return (
    <div class="invite-link">
      <a class="mono small" href={p.link} target="_blank" rel="noreferrer" data-testid="invite-link">
        {p.link}
      </a>{' '}
      <button type="button" class="small" onClick={() => void copy()} data-testid="invite-copy">
        {t('access.invites.copy')}
      </button>
      {copied === true && <span class="ok-text small"> {t('access.invites.copied')}</span>}
      {copied === false && <span class="muted small"> {t('access.invites.copyFailed')}</span>}
    </div>
  );
}

function InviteState(p: { i: InviteView }) {
  const { t } = useI18n();
  const { i } = p;
  if (i.revoked) return <Badge tone="muted">{t('access.invites.revoked')}</Badge>;
  if (i.expiresAt && Date.parse(i.expiresAt) <= Date.now())
    return <Badge tone="muted">{t('access.invites.expired')}</Badge>;
  if (i.uses >= i.maxUses) return <Badge tone="warn">{t('access.invites.usedUp')}</Badge>;
  return null;
}

function InviteRow(p: { i: InviteView; onChanged: () => void }) {
  const { t } = useI18n();
  const canAct = useCan('admin');
  const [error, setError] = useState<string | null>(null);
  const { i } = p;
  const revoke = async () => {
    if (!confirm(t('access.invites.revokeConfirm', { code: i.code }))) return;
    setError(null);
    try {
      await gql(REVOKE_INVITE, { code: i.code });
      p.onChanged();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <tr data-testid="invite" data-code={i.code} class={i.revoked ? 'dim' : ''}>
      <td data-label={t('access.invites.code')}>
        <code class="strong">{i.code}</code> <InviteState i={i} />
        {/* A revoked code lets nobody in: its link is not offered any more. */}
        {!i.revoked &&
          (i.link ? <CopyLink link={i.link} /> : <div class="muted small">{t('access.invites.noLink')}</div>)}
      </td>
      <td data-label={t('access.invites.uses')} class="num" data-testid="invite-uses">
        {i.uses} / {i.maxUses}
      </td>
      <td data-label={t('access.invites.expires')}>
        {i.expiresAt ? <Time at={i.expiresAt} /> : <span class="muted">{t('access.invites.never')}</span>}
      </td>
      <td data-label={t('access.invites.createdBy')}>
        {i.createdBy}
        <div class="muted small">
          <Time at={i.createdAt} />
        </div>
      </td>
      <td data-label="">
        {!i.revoked && (
          <button type="button" class="small danger" disabled={!canAct} onClick={() => void revoke()}>
            {t('access.invites.revoke')}
          </button>
        )}
        {error && <div class="field-error">{error}</div>}
      </td>
    </tr>
  );
}

export function InviteList(p: { invites: InviteView[]; onChanged: () => void }) {
  const { t } = useI18n();
  if (p.invites.length === 0) return <Empty>{t('access.invites.empty')}</Empty>;
  return (
    <table class="table stack compact" data-testid="invites">
      <thead>
        <tr>
          <th scope="col">{t('access.invites.code')}</th>
          <th scope="col" class="num">
            {t('access.invites.uses')}
          </th>
          <th scope="col">{t('access.invites.expires')}</th>
          <th scope="col">{t('access.invites.createdBy')}</th>
          <th scope="col" />
        </tr>
      </thead>
      <tbody>
        {p.invites.map((i) => (
          <InviteRow key={i.code} i={i} onChanged={p.onChanged} />
        ))}
      </tbody>
    </table>
  );
}
