// The model providers of the chain (SPEC §14) on the home page: each one's state, what it last
// failed with, until when it rests, and the models answering without tools.
import type { HealthView } from '../lib/health.js';
import { useI18n } from '../lib/i18n.js';
import { Badge, StatusBadge, Time } from './ui.js';

const TONE = { ok: 'ok', idle: 'muted', cooling: 'warn', failing: 'bad' } as const;

export function ProviderList(p: { providers: HealthView['providers'] }) {
  const { t } = useI18n();
  if (p.providers.length === 0) return null;
  return (
    <table class="table compact" data-testid="providers">
      <caption class="muted small">{t('home.providers')}</caption>
      <tbody>
        {p.providers.map((v) => (
          <tr data-testid={`provider-${v.id}`} data-state={v.state}>
            <td class="mono small">{v.label}</td>
            <td>
              <StatusBadge tone={TONE[v.state]} status={v.state} />{' '}
              {v.toolsRefused.length > 0 && <Badge tone="warn">{t('home.noTools')}</Badge>}
            </td>
            <td class="small">
              {v.coolingUntil && v.state === 'cooling' ? (
                <>
                  {t('home.coolingUntil')} <Time at={v.coolingUntil} />
                </>
              ) : (
                v.state !== 'ok' && v.lastError
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
