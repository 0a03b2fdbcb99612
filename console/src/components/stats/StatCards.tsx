// Why a component: the row of headline counts (dialogues, sessions, turns, messages, tokens) is one view.
import { formatNumber } from '../../lib/time.js';
import { useI18n } from '../../lib/i18n.js';
import { Stat } from '../ui.js';
import type { StatsView } from './useStats.js';

export function StatCards(p: { s: StatsView }) {
  const { t } = useI18n();
  const { s } = p;
  return (
    <div class="stats-row" data-testid="stats-cards">
      <Stat
        label={t('stats.activeDialogues')}
        value={formatNumber(s.dialogues.active)}
        hint={t('stats.new', { n: s.dialogues.created })}
      />
      <Stat label={t('stats.sessions')} value={formatNumber(s.sessions)} />
      <Stat
        label={t('stats.turns')}
        value={formatNumber(s.turns.total)}
        hint={t('stats.turnsHint', {
          responded: s.turns.responded,
          unresponded: s.turns.unresponded,
          pending: s.turns.pending,
        })}
      />
      <Stat
        label={t('th.messages')}
        value={formatNumber(s.messages.total)}
        hint={t('stats.messagesHint', { human: s.messages.human, ai: s.messages.ai, system: s.messages.system })}
      />
      <Stat
        label={t('stats.tokens')}
        value={formatNumber(s.tokens.totalTokens)}
        hint={t('stats.modelCalls', { n: s.tokens.calls })}
      />
    </div>
  );
}
