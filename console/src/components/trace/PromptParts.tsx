// A context build's prompt: every part's size in tokens (a stacked bar and a table), the
// totals and hashes, then the full prompt message by message.
import { partLabel, type ContextBuild } from '../../lib/trace.js';
import { formatMs, formatNumber } from '../../lib/time.js';
import { Badge, Collapsible } from '../ui.js';
import { useI18n } from '../../lib/i18n.js';

const COLORS = [
  '#6d5efc',
  '#22a06b',
  '#e2b203',
  '#f87168',
  '#579dff',
  '#9f8fef',
  '#4bce97',
  '#fea362',
  '#8590a2',
  '#c25100',
];

export function PromptParts(p: { ctx: ContextBuild }) {
  const { ctx } = p;
  const { t } = useI18n();
  const total = ctx.parts.reduce((n, x) => n + x.tokens, 0) || 1;
  return (
    <div data-testid="prompt-parts">
      <div class="kv-row">
        <span>
          {t('parts.total')} <strong>{formatNumber(ctx.totalTokens)}</strong> {t('calls.tokens')}
        </span>
        <span>{t('parts.middle', { n: formatNumber(ctx.middleTokens) })}</span>
        {ctx.mode && <span>{t('parts.history', { mode: ctx.mode })}</span>}
        {ctx.model && <span>{t('parts.model', { model: ctx.model })}</span>}
        {ctx.configVersion !== null && <span>{t('parts.config', { v: ctx.configVersion })}</span>}
        {ctx.gatherMs !== null && <span>{t('parts.gathered', { ms: formatMs(ctx.gatherMs) })}</span>}
        <span class="mono small" title={t('parts.hashTip')}>
          {ctx.hash} / {ctx.prefixHash}
        </span>
      </div>
      {ctx.tooLong && (
        <div class="error-box">
          {t('parts.tooLong', { tokens: formatNumber(ctx.tooLong.tokens), limit: formatNumber(ctx.tooLong.limit) })}
        </div>
      )}
      <div class="stackbar" aria-hidden="true">
        {ctx.parts.map((x, i) =>
          x.tokens > 0 ? (
            <i
              style={{ width: `${(100 * x.tokens) / total}%`, background: COLORS[i % COLORS.length] }}
              title={`${x.name}: ${x.tokens}`}
            />
          ) : null,
        )}
      </div>
      <table class="table compact">
        <thead>
          <tr>
            <th scope="col">{t('th.part')}</th>
            <th scope="col" class="num">
              {t('th.tokens')}
            </th>
            <th scope="col" class="num">
              {t('parts.chars')}
            </th>
            <th scope="col" class="num">
              {t('parts.share')}
            </th>
          </tr>
        </thead>
        <tbody>
          {ctx.parts.map((x, i) => (
            <tr class={x.tokens === 0 ? 'dim' : ''} data-testid="prompt-part">
              <td>
                <i class="swatch" style={{ background: x.tokens ? COLORS[i % COLORS.length] : 'transparent' }} />
                <span class="mono">{x.name}</span> <span class="muted small">{partLabel(t, x.name)}</span>
              </td>
              <td class="num">{formatNumber(x.tokens)}</td>
              <td class="num">{formatNumber(x.chars)}</td>
              <td class="num">{x.tokens ? `${((100 * x.tokens) / total).toFixed(1)} %` : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {ctx.tools.length > 0 && (
        <div class="small muted">
          {t('parts.toolsOffered')}{' '}
          {ctx.tools.map((tool) => (
            <Badge tone="plain">{tool}</Badge>
          ))}
        </div>
      )}
      <Collapsible summary={t('parts.fullPrompt', { n: ctx.prompt.length })}>
        <ol class="prompt">
          {ctx.prompt.map((m) => (
            <li>
              <div class="prompt-role">
                {m.role}
                {m.name ? ` · ${m.name}` : ''}{' '}
                <span class="muted small">{t('parts.charCount', { n: m.text.length })}</span>
              </div>
              <pre class="prewrap">{m.text}</pre>
            </li>
          ))}
        </ol>
      </Collapsible>
    </div>
  );
}
