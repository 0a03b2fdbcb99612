// One introspection turn of a run: its tool and status, its costs, the memories it wrote, the
// mood and value changes it made, and its tool's input and output.
import { useI18n } from '../../lib/i18n.js';
import type { TurnView } from '../../lib/reflectionQueries.js';
import { moodText, STATUS_TONE } from '../../lib/reflectionText.js';
import { formatMs, formatNumber } from '../../lib/time.js';
import { Collapsible, Json, StatusBadge } from '../ui.js';

export function IntrospectionCard(p: { t: TurnView }) {
  const t = p.t;
  const { t: tr } = useI18n();
  return (
    <div class="card" data-testid="introspection-turn">
      <div class="card-head">
        <span class="muted">#{t.seq + 1}</span>
        <strong>{t.purpose}</strong>
        <span class="chip mono">{t.tool}</span>
        <StatusBadge tone={STATUS_TONE[t.status]} status={t.status} />
        {t.subject && <span class="muted small">{tr('common.about', { name: t.subject.displayName })}</span>}
      </div>
      <div class="metrics">
        <span>
          {tr('reflections.step')} <strong>{t.step}</strong>
        </span>
        <span>
          {tr('reflections.duration')} <strong>{formatMs(t.durationMs)}</strong>
        </span>
        <span>
          {tr('reflections.tokens')} <strong>{formatNumber(t.tokens)}</strong>
        </span>
        <span>
          {tr('reflections.generated')} <strong>{t.generatedMemoryIds.length}</strong>
        </span>
        {t.supersededMemoryIds.length > 0 && (
          <span>
            {tr('reflections.superseded')} <strong>{t.supersededMemoryIds.length}</strong>
          </span>
        )}
      </div>
      {t.error && (
        <div class="error-box">
          <strong>{t.error.code}</strong>: {t.error.message}
        </div>
      )}
      {t.generatedMemories.length > 0 && (
        <ul class="small">
          {t.generatedMemories.map((m) => (
            <li>{m.text}</li>
          ))}
        </ul>
      )}
      {t.moodShift && (
        <div class="small">
          {tr('reflections.moodShift')} {moodText(tr, t.moodShift.before)} →{' '}
          <strong>{moodText(tr, t.moodShift.after)}</strong>
        </div>
      )}
      {t.valueImpact && t.valueImpact.changes.length > 0 && (
        <div class="small">
          {tr('reflections.values')}{' '}
          {t.valueImpact.changes.map((c, i) => (
            <span>
              {i > 0 && ', '}
              {c.name} {c.before === null ? tr('reflections.new') : c.before.toFixed(2)} →{' '}
              <strong>{c.after.toFixed(2)}</strong>
              {c.limited && <span class="muted"> {tr('reflections.limited')}</span>}
            </span>
          ))}
        </div>
      )}
      {t.notes.length > 0 && <div class="muted small">{tr('reflections.notes', { notes: t.notes.join(' · ') })}</div>}
      <Collapsible summary={tr('reflections.toolInput')}>
        <Json value={t.toolInput ?? null} />
      </Collapsible>
      <Collapsible summary={tr('reflections.toolOutput')}>
        <Json value={t.toolOutput ?? null} />
      </Collapsible>
    </div>
  );
}
