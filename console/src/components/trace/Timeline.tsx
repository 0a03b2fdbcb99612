// A turn's steps on one time axis: context build, recall, each model round (with its first
// token marked), each tool call and each delivery, as bars placed from the turn's start. With
// model prices in the config, each model round shows its cost and the turn its total.
import type { EventView } from '../../lib/types.js';
import { axisOf, timelineSteps, type Step } from '../../lib/timeline.js';
import { callCost, formatCost, usePricing, type ModelPrice } from '../../lib/cost.js';
import { formatMs } from '../../lib/time.js';
import { useI18n, type I18n } from '../../lib/i18n.js';
import { Empty } from '../ui.js';
import './timeline.css';

const pct = (n: number): string => `${Math.max(0, Math.min(100, n)).toFixed(3)}%`;

function label(s: Step, t: I18n['t']): string {
  if (s.kind === 'context') return t('trace.timeline.context');
  if (s.kind === 'recall') return t('trace.timeline.recall');
  if (s.kind === 'llm') return t('trace.timeline.round', { n: s.round ?? '?' });
  if (s.kind === 'tool') return t('trace.timeline.tool', { name: s.name });
  return t('trace.timeline.delivery', { platform: s.name });
}

export function Timeline(p: {
  startedAt: string;
  closedAt: string | null;
  events: EventView[];
  llmIds: ReadonlySet<string>;
  toolIds: ReadonlySet<string>;
}) {
  const { t, locale } = useI18n();
  const pricing = usePricing();
  const steps = timelineSteps(p.startedAt, p.events, p.llmIds, p.toolIds);
  if (steps.length === 0) return <Empty>{t('trace.timeline.empty')}</Empty>;
  const closed = p.closedAt ? new Date(p.closedAt).getTime() - new Date(p.startedAt).getTime() : null;
  const axis = axisOf(steps, closed);
  const span = axis.to - axis.from;
  const at = (ms: number) => ((ms - axis.from) / span) * 100;
  return (
    <div data-testid="timeline">
      <div class="timeline-axis muted small">
        <span>{t('trace.timeline.axis', { total: formatMs(span) })}</span>
        <TurnCost steps={steps} pricing={pricing} locale={locale} />
      </div>
      <ol class="timeline-rows">
        {steps.map((s) => {
          const cost = s.call ? callCost(pricing, s.call.model, s.call.usage) : null;
          const tip =
            s.kind === 'recall'
              ? t('trace.timeline.recallTip')
              : s.kind === 'delivery'
                ? t('trace.timeline.deliveryTip')
                : undefined;
          return (
            <li class={`timeline-row ${s.kind}${s.ok ? '' : ' failed'}`} data-testid="timeline-step" data-kind={s.kind}>
              <div class="timeline-label" title={tip}>
                <strong>{label(s, t)}</strong>{' '}
                <span class="muted small">
                  {s.kind === 'delivery' ? formatMs(s.end) : formatMs(s.end - s.start)}
                  {s.kind === 'llm' && s.name && (
                    <>
                      {' '}
                      · <span class="mono">{s.name}</span>
                    </>
                  )}
                  {s.ttftMs !== null && <> · {t('trace.timeline.ttft', { ms: formatMs(s.ttftMs) })}</>}
                  {cost !== null && (
                    <span data-testid="call-cost"> · {t('trace.cost.label', { cost: formatCost(cost, locale) })}</span>
                  )}
                  {!s.ok && <> · {t('trace.timeline.failed')}</>}
                </span>
              </div>
              <div class="timeline-track">
                <div
                  class="timeline-bar"
                  data-testid="timeline-bar"
                  title={`${formatMs(s.start)} → ${formatMs(s.end)}`}
                  style={{ left: pct(at(s.start)), width: pct(at(s.end) - at(s.start)) }}
                />
                {s.ttftMs !== null && <div class="timeline-ttft" style={{ left: pct(at(s.start + s.ttftMs)) }} />}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The sum over the turn's priced model calls; calls of unpriced models are counted, not guessed. */
function TurnCost(p: { steps: Step[]; pricing: ModelPrice[]; locale: string }) {
  const { t } = useI18n();
  if (p.pricing.length === 0) return null;
  const costs = p.steps.flatMap((s) => (s.call ? [callCost(p.pricing, s.call.model, s.call.usage)] : []));
  const priced = costs.filter((c): c is number => c !== null);
  if (priced.length === 0) return null;
  const unpriced = costs.length - priced.length;
  return (
    <span data-testid="turn-cost" title={t('trace.cost.tip')}>
      {t('trace.cost.turn', {
        cost: formatCost(
          priced.reduce((a, b) => a + b, 0),
          p.locale,
        ),
      })}
      {unpriced > 0 && <> ({t('trace.cost.unpriced', { n: unpriced })})</>}
    </span>
  );
}
