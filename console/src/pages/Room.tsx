// One room, live: members, its recent rounds (who was asked, who answered or skipped and why)
// and the room's events as they happen; operators can pause and resume it.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../lib/api.js';
import { graphql, type ResultOf } from '../lib/graphql.js';
import { useDebounced, useQuery } from '../lib/hooks.js';
import { useSubscription } from '../lib/live.js';
import { Link } from '../lib/router.js';
import { useCan } from '../lib/viewerContext.js';
import { Badge, Empty, ErrorBox, LiveDot, Loading, PageHeader, Panel, StatusBadge, Time } from '../components/ui.js';
import { modeLabel, RoomSummaryFields } from './Rooms.js';
import { useI18n } from '../lib/i18n.js';
import { RoomMembersEditor } from '../components/setup/RoomMembersEditor.js';
import { RoomSettingsForm } from '../components/setup/RoomSettingsForm.js';
import { RoomWebView } from '../components/RoomWebView.js';

const QUERY = graphql(
  `
    query Room($id: ID!) {
      room(id: $id) {
        ...RoomSummaryFields
        description
        announcement
        dialogue {
          id
          title
        }
        rounds(last: 10) {
          id
          seq
          startedAt
          completed
          endedBy
          queue
          askTurnIds
          answers {
            agentId
            at
            messageId
          }
          skips {
            agentId
            at
            reason
          }
        }
      }
    }
  `,
  [RoomSummaryFields],
);
const EVENTS = graphql(`
  subscription RoomEvents($id: ID!) {
    roomEvents(roomId: $id) {
      type
      at
      agentId
      roundId
      message {
        content
        senderRole
      }
    }
  }
`);
const PAUSE = graphql(`
  mutation Pause($id: ID!) {
    pauseRoom(id: $id) {
      id
    }
  }
`);
const RESUME = graphql(`
  mutation Resume($id: ID!) {
    resumeRoom(id: $id) {
      id
    }
  }
`);

type RoomEvent = ResultOf<typeof EVENTS>['roomEvents'];

export function RoomPage(p: { id: string }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const q = useQuery(QUERY, { id: p.id });
  const [events, setEvents] = useState<RoomEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useDebounced(() => void q.reload(), 400);
  const live = useSubscription(EVENTS, { id: p.id }, ({ roomEvents: e }) => {
    setEvents((list) => [e, ...list].slice(0, 50));
    refresh();
  });
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading what="the room" />;
  const r = q.data.room;
  const names = Object.fromEntries(r.members.flatMap((m) => (m.agent ? [[m.agent.id, m.agent.name]] : [])));
  const act = async (mutation: () => Promise<unknown>) => {
    setError(null);
    try {
      await mutation();
      await q.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <>
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
            <LiveDot state={live} />
            {canAct &&
              (r.status === 'active' ? (
                <button onClick={() => act(() => gql(PAUSE, { id: r.id }))}>{t('room.pause')}</button>
              ) : (
                <button onClick={() => act(() => gql(RESUME, { id: r.id }))}>{t('room.resume')}</button>
              ))}
          </>
        }
      />
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
        {r.rounds.length === 0 ? (
          <Empty>{t('room.noRounds')}</Empty>
        ) : (
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
              {[...r.rounds].reverse().map((round) => (
                <tr>
                  <td data-label="#">{round.seq}</td>
                  <td data-label={t('th.started')}>
                    <Time at={round.startedAt} />
                  </td>
                  <td data-label={t('room.askedInOrder')}>
                    {round.queue.map((agentId, i) => {
                      const answered = round.answers.find((a) => a.agentId === agentId);
                      const skipped = round.skips.find((s) => s.agentId === agentId);
                      const turn = round.askTurnIds[i];
                      const name = names[agentId] ?? agentId;
                      const label = answered
                        ? `${name} ✓`
                        : skipped
                          ? t('room.skipped', { name, reason: skipped.reason })
                          : name;
                      return (
                        <span class={`chip ${answered ? 'ok' : skipped ? 'muted' : ''}`}>
                          {turn ? <Link href={`/turns/${encodeURIComponent(turn)}`}>{label}</Link> : label}
                        </span>
                      );
                    })}
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
        )}
      </Panel>
    </>
  );
}
