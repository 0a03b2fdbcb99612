// Why a component: the room's title line (status, chat, mode, dialogue link, live dot, pause/resume) is one job.
import type { LiveState } from '../../lib/live.js';
import { Link } from '../../lib/router.js';
import { useI18n } from '../../lib/i18n.js';
import { modeLabel } from './roomSummary.js';
import { LiveDot, PageHeader, StatusBadge } from '../ui.js';
import type { RoomView } from './useRoom.js';

export function RoomHeader(p: {
  r: RoomView;
  live: LiveState;
  canAct: boolean;
  onPause: () => unknown;
  onResume: () => unknown;
}) {
  const { t } = useI18n();
  const { r } = p;
  return (
    <PageHeader
      title={r.name}
      sub={
        <>
          <StatusBadge status={r.status} /> {t('dialogue.chat', { platform: r.platform })}{' '}
          <span class="mono">{r.chatId}</span> · {t('room.mode', { mode: modeLabel(t, r.mode) })}
          {r.dialogue && (
            <>
              {' '}
              · <Link href={`/dialogues/${encodeURIComponent(r.dialogue.id)}`}>{t('room.itsDialogue')}</Link>
            </>
          )}
        </>
      }
      actions={
        <>
          <LiveDot state={p.live} />
          {p.canAct &&
            (r.status === 'active' ? (
              <button onClick={p.onPause}>{t('room.pause')}</button>
            ) : (
              <button onClick={p.onResume}>{t('room.resume')}</button>
            ))}
        </>
      }
    />
  );
}
