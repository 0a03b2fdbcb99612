// The landing page after sign-in: the deployment's health at a glance — platforms, the model
// and the embeddings, MongoDB and Redis, the respond queue — and the incidents feed.
import { useQuery } from '../lib/hooks.js';
import { formatMs, formatNumber } from '../lib/time.js';
import {
  HEALTH_POLL_MS,
  HEALTH_QUERY,
  problemsOf,
  serviceName,
  warningsOf,
  type CallHealthView,
} from '../lib/health.js';
import { Incidents } from '../components/Incidents.js';
import { ProviderList } from '../components/ProviderList.js';
import { Badge, ErrorBox, Loading, PageHeader, Panel, Stat, StatusBadge, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';

const STATE_TONE = { ok: 'ok', idle: 'muted', off: 'muted', degraded: 'warn', failing: 'bad' } as const;

function CallCard(p: { c: CallHealthView; label: string }) {
  const c = p.c;
  const { t } = useI18n();
  return (
    <div class="health-card" data-testid={`health-${c.name}`} data-state={c.state}>
      <div class="health-card-head">
        <strong>{p.label}</strong> <StatusBadge tone={STATE_TONE[c.state]} status={c.state} />
      </div>
      <div class="muted small mono">{c.target}</div>
      <dl class="health-facts">
        <dt>{t('home.lastSuccess')}</dt>
        <dd>
          <Time at={c.lastOkAt} relative />
        </dd>
        <dt>{t('home.lastError')}</dt>
        <dd>
          <Time at={c.lastErrorAt} relative />
        </dd>
        <dt>{t('home.errorsWindow', { n: c.windowMinutes })}</dt>
        <dd>
          {c.calls === 0
            ? t('home.noCalls')
            : t('home.errorsOf', { errors: c.errors, calls: c.calls, pct: Math.round((c.errorRate ?? 0) * 100) })}
        </dd>
      </dl>
      {c.lastError && c.state !== 'ok' && (
        <div class="health-error" data-testid={`health-${c.name}-error`}>
          {c.lastError}
        </div>
      )}
    </div>
  );
}

export function Home() {
  const { t } = useI18n();
  const q = useQuery(HEALTH_QUERY, {}, { pollMs: HEALTH_POLL_MS });
  const h = q.data?.health;
  const problems = h ? problemsOf(h, t) : [];
  // Warnings (no model configured) are no failure, but never "all systems answering" either.
  const warnings = h ? warningsOf(h, t) : [];
  const attention = [...problems, ...warnings];
  const tone = problems.length > 0 ? 'bad' : warnings.length > 0 ? 'warn' : 'ok';
  return (
    <>
      <PageHeader title={t('home.title')} sub={t('home.sub', { s: HEALTH_POLL_MS / 1000 })} />
      <ErrorBox error={q.error} />
      {!h ? (
        <Loading what="health" />
      ) : (
        <>
          <div class={`health-summary ${tone}`} data-testid="health-summary" data-tone={tone} role="status">
            {attention.length > 0 ? (
              <ul>
                {attention.map((s) => (
                  <li>{s}</li>
                ))}
              </ul>
            ) : (
              t('home.allOk')
            )}
          </div>
          <div class="stats-row" data-testid="health-queue">
            <Stat
              label={t('home.inProgress')}
              value={h.repliesInProgress === null ? '—' : formatNumber(h.repliesInProgress)}
            />
            <Stat
              label={t('home.queued')}
              value={h.queue ? formatNumber(h.queue.waiting) : '—'}
              hint={h.queue ? t('home.delayed', { n: h.queue.delayed }) : t('home.queueUnreadable')}
            />
            <Stat
              label={t('home.oldestWait')}
              value={h.queue?.oldestWaitMs === null || !h.queue ? '—' : formatMs(h.queue.oldestWaitMs)}
            />
            {h.services.map((s) => (
              <div class="stat" data-testid={`service-${s.name}`}>
                <div class="stat-label">{serviceName(s.name)}</div>
                <div class="stat-value">
                  <Badge tone={s.ready ? 'ok' : 'bad'}>{s.ready ? t('status.ready') : t('status.notReady')}</Badge>
                </div>
              </div>
            ))}
          </div>
          <div class="grid-2">
            <Panel title={t('home.modelPanel')}>
              <div class="health-cards">
                <CallCard c={h.model} label={t('home.model')} />
                <CallCard c={h.embeddings} label={t('home.embeddings')} />
              </div>
              <ProviderList providers={h.providers} />
            </Panel>
            <Panel title={t('home.platforms')}>
              <table class="table compact" data-testid="platforms">
                <thead>
                  <tr>
                    <th>{t('th.platform')}</th>
                    <th>{t('th.state')}</th>
                    <th>{t('home.updatesBy')}</th>
                    <th>{t('home.lastUpdate')}</th>
                  </tr>
                </thead>
                <tbody>
                  {h.platforms.map((p) => (
                    <tr data-testid={`platform-${p.id}`} data-on={String(p.on)}>
                      <td>{p.id}</td>
                      <td>
                        <Badge tone={p.on ? 'ok' : 'muted'}>{p.on ? t('status.on') : t('status.off')}</Badge>
                      </td>
                      <td>{p.mode ?? (p.on ? '' : t('home.noToken'))}</td>
                      <td>
                        <Time at={p.lastInboundAt} relative />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Panel>
          </div>
          <Panel title={t('home.incidents', { n: h.incidentWindowHours })}>
            <Incidents list={h.incidents} hours={h.incidentWindowHours} readable={h.recordReadable} />
          </Panel>
        </>
      )}
    </>
  );
}
