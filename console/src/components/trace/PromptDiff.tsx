// Why a component: the full prompts' line diff (folded unchanged runs) is its own panel.
import type { DiffHunk } from '../../lib/diff.js';
import { useI18n } from '../../lib/i18n.js';
import { Empty, Panel } from '../ui.js';

export function PromptDiff(p: { hunks: DiffHunk[] }) {
  const { t } = useI18n();
  const changes = p.hunks.reduce(
    (n, h) => n + (h.kind === 'lines' ? h.lines.filter((l) => l.op !== 'same').length : 0),
    0,
  );
  return (
    <Panel title={t('diff.prompt', { n: changes })}>
      {changes === 0 ? (
        <Empty>{t('diff.identical')}</Empty>
      ) : (
        <div class="diff" data-testid="prompt-diff">
          {p.hunks.map((h) =>
            h.kind === 'gap' ? (
              <div class="diff-gap">{t('diff.gap', { n: h.count })}</div>
            ) : (
              h.lines.map((l) => (
                <div class={`diff-line ${l.op}`}>
                  <span class="sign">{l.op === 'add' ? '+' : l.op === 'del' ? '−' : ' '}</span>
                  {l.text || ' '}
                </div>
              ))
            ),
          )}
        </div>
      )}
    </Panel>
  );
}
