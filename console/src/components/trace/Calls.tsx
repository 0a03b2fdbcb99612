// A turn's model calls, tool calls and deliveries, as recorded in its trace.
import type { EventView } from '../../lib/types.js';
import { delivery, eventTopic, llmCall, toolCall } from '../../lib/trace.js';
import { formatMs, formatNumber } from '../../lib/time.js';
import { Badge, Collapsible, Json, Time } from '../ui.js';
import { useI18n } from '../../lib/i18n.js';

export function LlmCalls(p: { events: EventView[] }) {
  const i18n = useI18n();
  return (
    <div class="cards" data-testid="llm-calls">
      {p.events.map((e) => {
        const c = llmCall(e);
        return (
          <div class="card" data-testid="llm-call">
            <div class="card-head">
              <strong>{c.task ?? i18n.t('calls.round', { n: c.round ?? '?' })}</strong>{' '}
              <span class="mono">{c.model}</span> <span class="muted small">{c.api}</span>{' '}
              {c.error ? (
                <Badge tone="bad">{i18n.t('status.error')}</Badge>
              ) : (
                c.finishReason && <Badge tone="plain">{c.finishReason}</Badge>
              )}
              <span class="right muted small">
                <Time at={e.at} />
              </span>
            </div>
            <div class="metrics">
              <span>
                {i18n.t('calls.ttft')} <strong>{formatMs(c.ttftMs)}</strong>
              </span>
              <span>
                {i18n.t('calls.duration')} <strong>{formatMs(c.durationMs)}</strong>
              </span>
              <span>
                {i18n.t('calls.prompt')} <strong>{formatNumber(c.usage?.promptTokens)}</strong>
              </span>
              <span>
                {i18n.t('calls.completion')} <strong>{formatNumber(c.usage?.completionTokens)}</strong>
              </span>
              <span>
                {i18n.t('calls.total')} <strong>{formatNumber(c.usage?.totalTokens)}</strong> {i18n.t('calls.tokens')}
              </span>
            </div>
            {c.error && <div class="error-box">{c.error}</div>}
            {c.toolCalls.length > 0 && (
              <div class="small">
                {i18n.t('calls.askedFor')}{' '}
                {c.toolCalls.map((t) => (
                  <span class="chip mono">
                    {t.name}({t.arguments})
                  </span>
                ))}
              </div>
            )}
            {(c.output ?? c.partial) && (
              <Collapsible summary={i18n.t('calls.output')}>
                <pre class="prewrap">{c.output ?? c.partial}</pre>
              </Collapsible>
            )}
            {c.appended.length > 0 && (
              <Collapsible summary={i18n.t('calls.appended', { n: c.appended.length })}>
                {c.appended.map((m) => (
                  <pre class="prewrap">
                    {m.role}: {m.text}
                  </pre>
                ))}
              </Collapsible>
            )}
          </div>
        );
      })}
    </div>
  );
}

export function ToolCalls(p: { events: EventView[] }) {
  const i18n = useI18n();
  return (
    <div class="cards" data-testid="tool-calls">
      {p.events.map((e) => {
        const t = toolCall(e);
        return (
          <div class="card" data-testid="tool-call">
            <div class="card-head">
              <strong class="mono">{t.name}</strong>{' '}
              {t.ok ? (
                <Badge tone="ok">{i18n.t('calls.ok')}</Badge>
              ) : (
                <Badge tone="bad">{i18n.t('status.failed')}</Badge>
              )}
              <span class="muted small">
                {i18n.t('calls.roundDuration', { n: t.round ?? '?', ms: formatMs(t.durationMs) })}
              </span>
            </div>
            <div class="two-col">
              <div>
                <div class="label">{i18n.t('calls.arguments')}</div>
                <Json value={t.arguments} />
              </div>
              <div>
                <div class="label">{t.ok ? i18n.t('calls.result') : i18n.t('calls.error')}</div>
                <Json value={t.ok ? t.result : t.error} />
              </div>
            </div>
          </div>
        );
      })}
    </div>
  );
}

export function Deliveries(p: { events: EventView[] }) {
  const { t } = useI18n();
  return (
    <table class="table stack compact" data-testid="deliveries">
      <thead>
        <tr>
          <th scope="col">{t('th.at')}</th>
          <th scope="col">{t('th.platform')}</th>
          <th scope="col">{t('th.result')}</th>
          <th scope="col">{t('calls.messageIds')}</th>
          <th scope="col">{t('calls.errors')}</th>
        </tr>
      </thead>
      <tbody>
        {p.events.map((e) => {
          const d = delivery(e);
          return (
            <tr>
              <td data-label={t('th.at')}>
                <Time at={e.at} />
              </td>
              <td data-label={t('th.platform')}>{d.platform}</td>
              <td data-label={t('th.result')}>
                {d.skipped ? (
                  <Badge tone="muted">{t('status.skipped')}</Badge>
                ) : d.ok ? (
                  <Badge tone="ok">{t('status.delivered')}</Badge>
                ) : (
                  <Badge tone="bad">{t('status.failed')}</Badge>
                )}
              </td>
              <td data-label={t('calls.messageIds')} class="mono small">
                {d.platformMessageIds.join(', ') || '—'}
              </td>
              <td data-label={t('calls.errors')} class="small">
                {[d.error, d.intermediateError && t('calls.whileStreaming', { error: d.intermediateError })]
                  .filter(Boolean)
                  .join('; ') || '—'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Everything else the turn recorded (warnings, floor decisions, background tasks…). */
export function OtherEvents(p: { events: EventView[] }) {
  return (
    <div class="cards">
      {p.events.map((e) => (
        <Collapsible
          summary={
            <>
              <Badge tone={e.kind === 'warning' || e.kind === 'moderation' ? 'warn' : 'plain'}>{e.kind}</Badge>{' '}
              {eventTopic(e)}{' '}
              <span class="muted small">
                <Time at={e.at} />
              </span>
            </>
          }
        >
          <Json value={e.data} />
        </Collapsible>
      ))}
    </div>
  );
}
