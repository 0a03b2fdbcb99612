// One room, live: members, its recent rounds (who was asked, who answered or skipped and why)
// and the room's events as they happen; operators can pause and resume it.
import { useCan } from '../lib/viewerContext.js';
import { Badge, Empty, ErrorBox, Loading, Panel, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { RoomMembersEditor } from '../components/setup/RoomMembersEditor.js';
import { RoomSettingsForm } from '../components/setup/RoomSettingsForm.js';
import { RoomWebView } from '../components/RoomWebView.js';
import { useRoom } from '../components/room/useRoom.js';
import { RoomHeader } from '../components/room/RoomHeader.js';
import { RoundsTable } from '../components/room/RoundsTable.js';

export function RoomPage(p: { id: string }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const { q, events, error, live, pause, resume } = useRoom(p.id);
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading what="the room" />;
  const r = q.data.room;
  const names = Object.fromEntries(r.members.flatMap((m) => (m.agent ? [[m.agent.id, m.agent.name]] : [])));
  return (
    <>
      <RoomHeader r={r} live={live} canAct={canAct} onPause={() => pause(r.id)} onResume={() => resume(r.id)} />
      <ErrorBox error={error} />
      {r.description && <p>{r.description}</p>}
      <div class="grid-2">
        <Panel title={t('th.members')}>
          <ol class="members">
            {r.members.map((m) => (
              <li>
                {m.agent?.name ?? m.kind} {m.isHost && <Badge tone="info">{t('room.host')}</Badge>}{' '}
                <span class="muted small">{m.kind}</span>
              </li>
            ))}
          </ol>
          {r.announcement && <div class="notice">{r.announcement}</div>}
          <RoomMembersEditor roomId={r.id} members={r.members} onChanged={() => void q.reload()} />
        </Panel>
        <Panel title={t('room.liveEvents')}>
          {events.length === 0 ? (
            <Empty>{t('room.waiting')}</Empty>
          ) : (
            <ul class="events">
              {events.map((e) => (
                <li>
                  <Time at={e.at} /> <Badge tone="plain">{e.type}</Badge> {e.agentId && (names[e.agentId] ?? e.agentId)}{' '}
                  {e.message && <span class="muted">“{e.message.content.slice(0, 120)}”</span>}
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
      {r.platform === 'web' && r.chatId && <RoomWebView conversationId={r.chatId} names={names} />}
      <RoomSettingsForm roomId={r.id} updatedAt={r.updatedAt} onSaved={() => void q.reload()} />
      <Panel title={t('room.recentRounds')}>
        {r.rounds.length === 0 ? <Empty>{t('room.noRounds')}</Empty> : <RoundsTable rounds={r.rounds} names={names} />}
      </Panel>
    </>
  );
}
