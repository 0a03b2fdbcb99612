// One person on the Access page: their accounts, their standing (an admin sets it; blocking asks
// first) and their own daily token quota (blank: the config's limit; 0: none).
import { useState } from 'preact/hooks';
import { errorText, gql } from '../../lib/api.js';
import { SET_HUMAN_ACCESS, SET_HUMAN_QUOTA, type PersonView, type Standing } from '../../lib/accessQueries.js';
import { useI18n } from '../../lib/i18n.js';
import { formatNumber } from '../../lib/time.js';
import { useCan } from '../../lib/viewerContext.js';
import { Time } from '../ui.js';
import { StandingBadge, StandingSelect } from './StandingSelect.js';

export function PersonRow(p: { h: PersonView; limit: number; onChanged: () => void }) {
  const { t } = useI18n();
  const canAct = useCan('admin');
  const { h } = p;
  const [quota, setQuota] = useState(h.dailyTokens === null ? '' : String(h.dailyTokens));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (what: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
      p.onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const setAccess = (access: Standing) => {
    if (access === 'BLOCKED' && !confirm(t('access.people.blockConfirm', { name: h.displayName }))) return;
    void run(() => gql(SET_HUMAN_ACCESS, { humanId: h.id, access }));
  };
  const saveQuota = (e: Event) => {
    e.preventDefault();
    const text = quota.trim();
    const n = text === '' ? null : Number(text);
    if (n !== null && !Number.isSafeInteger(n)) return setError(t('access.invites.wholeNumber'));
    void run(() => gql(SET_HUMAN_QUOTA, { humanId: h.id, dailyTokens: n }));
  };
  const limit = p.limit === 0 ? t('access.people.noLimit') : formatNumber(p.limit);
  return (
    <tr data-testid="person" data-id={h.id}>
      <td data-label={t('access.people.person')}>
        <strong>{h.displayName}</strong> <StandingBadge value={h.access} />
        <div class="muted small">
          {h.identities.map((i) => `${i.platform} ${i.username ? `@${i.username}` : i.userId}`).join(' · ')}
        </div>
      </td>
      <td data-label={t('access.people.access')}>
        <StandingSelect
          value={h.access}
          label={t('access.people.accessOf', { name: h.displayName })}
          disabled={!canAct || busy}
          onChange={setAccess}
          testId="person-access"
        />
      </td>
      <td data-label={t('access.people.quota')}>
        <form class="row" onSubmit={saveQuota} noValidate>
          <input
            class="quota-input"
            type="number"
            inputMode="numeric"
            min={0}
            value={quota}
            placeholder={t('access.people.quotaDefault', { limit })}
            title={t('access.people.quotaHint', { limit })}
            aria-label={t('access.people.quotaOf', { name: h.displayName })}
            disabled={!canAct || busy}
            onInput={(e) => setQuota(e.currentTarget.value)}
          />
          <button type="submit" class="small" disabled={!canAct || busy}>
            {t('access.people.setQuota')}
          </button>
        </form>
        {error && (
          <div class="field-error" role="alert">
            {error}
          </div>
        )}
      </td>
      <td data-label={t('access.people.firstSeen')}>
        <Time at={h.createdAt} />
      </td>
    </tr>
  );
}
