// Why a component: the recent rounds' table (who was asked, who answered or skipped) is its own view.
import { Link } from '../../lib/router.js';
import { useI18n } from '../../lib/i18n.js';
import { Badge, Time } from '../ui.js';
import type { RoundView } from './useRoom.js';

/** One asked agent as a chip: answered (✓), skipped (with the reason) or still waiting; linked to its turn. */
function AskedChip(p: { round: RoundView; agentId: string; i: number; names: Record<string, string> }) {
  const { t } = useI18n();
  const { round, agentId } = p;
  const answered = round.answers.find((a) => a.agentId === agentId);
  const skipped = round.skips.find((s) => s.agentId === agentId);
  const turn = round.askTurnIds[p.i];
  const name = p.names[agentId] ?? agentId;
  const label = answered ? `${name} ✓` : skipped ? t('room.skipped', { name, reason: skipped.reason }) : name;
  return (
    <span class={`chip ${answered ? 'ok' : skipped ? 'muted' : ''}`}>
      {turn ? <Link href={`/turns/${encodeURIComponent(turn)}`}>{label}</Link> : label}
    </span>
  );
}

export function RoundsTable(p: { rounds: RoundView[]; names: Record<string, string> }) {
  const { t } = useI18n();
  return (
    <table class="table stack compact">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">{t('th.started')}</th>
          <th scope="col">{t('room.askedInOrder')}</th>
          <th scope="col">{t('room.ended')}</th>
        </tr>
      </thead>
      <tbody>
        {[...p.rounds].reverse().map((round) => (
          <tr>
            <td data-label="#">{round.seq}</td>
            <td data-label={t('th.started')}>
              <Time at={round.startedAt} />
            </td>
            <td data-label={t('room.askedInOrder')}>
              {round.queue.map((agentId, i) => (
                <AskedChip round={round} agentId={agentId} i={i} names={p.names} />
              ))}
            </td>
            <td data-label={t('room.ended')}>
              {round.completed ? (
                (round.endedBy ?? t('status.done'))
              ) : (
                <Badge tone="info">{t('room.inProgress')}</Badge>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
