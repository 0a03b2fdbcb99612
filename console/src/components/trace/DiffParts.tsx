// Why a component: the per-part token comparison and the hashes/mode/config/recall line are one panel.
import { partLabel, type ContextBuild } from '../../lib/trace.js';
import { formatNumber } from '../../lib/time.js';
import { useI18n } from '../../lib/i18n.js';
import { Badge, Panel } from '../ui.js';

function delta(a: number | null | undefined, b: number | null | undefined) {
  const d = (b ?? 0) - (a ?? 0);
  if (!d) return <span class="muted">0</span>;
  return <span class={d > 0 ? 'up' : 'down'}>{d > 0 ? `+${formatNumber(d)}` : formatNumber(d)}</span>;
}

export function DiffParts(p: { ca: ContextBuild; cb: ContextBuild }) {
  const { t } = useI18n();
  const { ca, cb } = p;
  const names = [...new Set([...ca.parts.map((x) => x.name), ...cb.parts.map((x) => x.name)])];
  const tokens = (c: ContextBuild, n: string) => c.parts.find((x) => x.name === n)?.tokens ?? 0;
  const recallA = new Set(ca.recall?.memoryIds ?? []);
  const recallB = new Set(cb.recall?.memoryIds ?? []);
  const added = [...recallB].filter((x) => !recallA.has(x));
  const removed = [...recallA].filter((x) => !recallB.has(x));
  return (
    <Panel title={t('diff.parts')}>
      <table class="table compact" data-testid="diff-parts">
        <thead>
          <tr>
            <th scope="col">{t('th.part')}</th>
            <th scope="col" class="num">
              {t('diff.aTokens')}
            </th>
            <th scope="col" class="num">
              {t('diff.bTokens')}
            </th>
            <th scope="col" class="num">
              {t('diff.change')}
            </th>
          </tr>
        </thead>
        <tbody>
          {names.map((n) => (
            <tr>
              <td>
                <span class="mono">{n}</span> <span class="muted small">{partLabel(t, n)}</span>
              </td>
              <td class="num">{formatNumber(tokens(ca, n))}</td>
              <td class="num">{formatNumber(tokens(cb, n))}</td>
              <td class="num">{delta(tokens(ca, n), tokens(cb, n))}</td>
            </tr>
          ))}
          <tr class="total">
            <td>{t('diff.total')}</td>
            <td class="num">{formatNumber(ca.totalTokens)}</td>
            <td class="num">{formatNumber(cb.totalTokens)}</td>
            <td class="num">{delta(ca.totalTokens, cb.totalTokens)}</td>
          </tr>
        </tbody>
      </table>
      <div class="kv-row">
        <span>
          {t('diff.stablePrefix')}{' '}
          {ca.prefixHash === cb.prefixHash ? (
            <Badge tone="ok">{t('diff.unchanged')}</Badge>
          ) : (
            <Badge tone="warn">{t('diff.changed')}</Badge>
          )}
        </span>
        <span>{t('diff.historyMode', { a: ca.mode ?? '', b: cb.mode ?? '' })}</span>
        <span>{t('diff.config', { a: ca.configVersion ?? '?', b: cb.configVersion ?? '?' })}</span>
        <span>{t('diff.recall', { in: added.length, out: removed.length })}</span>
      </div>
    </Panel>
  );
}
