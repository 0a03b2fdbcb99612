// A context build's prompt: every part's size in tokens (a stacked bar and a table), the
// totals and hashes, then the full prompt message by message.
import { PART_LABELS, type ContextBuild } from '../../lib/trace.js';
import { formatMs, formatNumber } from '../../lib/time.js';
import { Badge, Collapsible } from '../ui.js';

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
  const total = ctx.parts.reduce((n, x) => n + x.tokens, 0) || 1;
  return (
    <div data-testid="prompt-parts">
      <div class="kv-row">
        <span>
          Total <strong>{formatNumber(ctx.totalTokens)}</strong> tokens
        </span>
        <span>middle section {formatNumber(ctx.middleTokens)}</span>
        {ctx.mode && <span>history: {ctx.mode}</span>}
        {ctx.model && <span>model {ctx.model}</span>}
        {ctx.configVersion !== null && <span>config v{ctx.configVersion}</span>}
        {ctx.gatherMs !== null && <span>gathered in {formatMs(ctx.gatherMs)}</span>}
        <span class="mono small" title="sha256 of the whole prompt / of the stable prefix">
          {ctx.hash} / {ctx.prefixHash}
        </span>
      </div>
      {ctx.tooLong && (
        <div class="error-box">
          Over the limit: {formatNumber(ctx.tooLong.tokens)} tokens of {formatNumber(ctx.tooLong.limit)} allowed
          (PROMPT_TOO_LONG; the model was not called).
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
            <th scope="col">Part</th>
            <th scope="col" class="num">
              Tokens
            </th>
            <th scope="col" class="num">
              Chars
            </th>
            <th scope="col" class="num">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {ctx.parts.map((x, i) => (
            <tr class={x.tokens === 0 ? 'dim' : ''} data-testid="prompt-part">
              <td>
                <i class="swatch" style={{ background: x.tokens ? COLORS[i % COLORS.length] : 'transparent' }} />
                <span class="mono">{x.name}</span> <span class="muted small">{PART_LABELS[x.name] ?? ''}</span>
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
          Tools offered:{' '}
          {ctx.tools.map((t) => (
            <Badge tone="plain">{t}</Badge>
          ))}
        </div>
      )}
      <Collapsible summary={`Full prompt (${ctx.prompt.length} messages)`}>
        <ol class="prompt">
          {ctx.prompt.map((m) => (
            <li>
              <div class="prompt-role">
                {m.role}
                {m.name ? ` · ${m.name}` : ''} <span class="muted small">{m.text.length} chars</span>
              </div>
              <pre class="prewrap">{m.text}</pre>
            </li>
          ))}
        </ol>
      </Collapsible>
    </div>
  );
}
