// One room, live: members, its recent rounds (who was asked, who answered or skipped and why)
// and the room's events as they happen; operators can pause and resume it.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../lib/api.js';
import { useDebounced, useQuery } from '../lib/hooks.js';
import { useSubscription } from '../lib/live.js';
import { Link } from '../lib/router.js';
import { useCan } from '../lib/viewerContext.js';
import { Badge, Empty, ErrorBox, LiveDot, Loading, PageHeader, Panel, Time } from '../components/ui.js';
import { ROOM_FIELDS, type RoomSummary } from './Rooms.js';
import { RoomMembersEditor } from '../components/setup/RoomMembersEditor.js';

interface Round {
  id: string;
  seq: number;
  startedAt: string;
  completed: boolean;
  endedBy: string | null;
  queue: string[];
  askTurnIds: string[];
  answers: Array<{ agentId: string; at: string; messageId: string }>;
  skips: Array<{ agentId: string; at: string; reason: string }>;
}
interface RoomDetail extends RoomSummary {
  description: string | null;
  announcement: string | null;
  dialogue: { id: string; title: string | null } | null;
  rounds: Round[];
}
interface RoomEvent {
  type: string;
  at: string;
  agentId: string | null;
  roundId: string | null;
  message: { content: string; senderRole: string } | null;
}

const QUERY = `query Room($id: ID!) { room(id: $id) { ${ROOM_FIELDS} description announcement dialogue { id title }
  rounds(last: 10) { id seq startedAt completed endedBy queue askTurnIds answers { agentId at messageId } skips { agentId at reason } } } }`;
const EVENTS = `subscription RoomEvents($id: ID!) { roomEvents(roomId: $id) { type at agentId roundId message { content senderRole } } }`;

export function RoomPage(p: { id: string }) {
  const canAct = useCan('operator');
  const q = useQuery<{ room: RoomDetail }>(QUERY, { id: p.id });
  const [events, setEvents] = useState<RoomEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useDebounced(() => void q.reload(), 400);
  const live = useSubscription<{ roomEvents: RoomEvent }>(EVENTS, { id: p.id }, ({ roomEvents: e }) => {
    setEvents((list) => [e, ...list].slice(0, 50));
    refresh();
  });
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading what="the room" />;
  const r = q.data.room;
  const names = Object.fromEntries(r.members.flatMap((m) => (m.agent ? [[m.agent.id, m.agent.name]] : [])));
  const act = async (mutation: string) => {
    setError(null);
    try {
      await gql(mutation, { id: r.id });
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
            <Badge>{r.status}</Badge> {r.platform} chat <span class="mono">{r.chatId}</span> · {r.mode.toLowerCase()}{' '}
            mode
            {r.dialogue && (
              <>
                {' '}
                · <Link href={`/dialogues/${encodeURIComponent(r.dialogue.id)}`}>its dialogue →</Link>
              </>
            )}
          </>
        }
        actions={
          <>
            <LiveDot state={live} />
            {canAct &&
              (r.status === 'active' ? (
                <button onClick={() => act('mutation Pause($id: ID!) { pauseRoom(id: $id) { id } }')}>Pause</button>
              ) : (
                <button onClick={() => act('mutation Resume($id: ID!) { resumeRoom(id: $id) { id } }')}>Resume</button>
              ))}
          </>
        }
      />
      <ErrorBox error={error} />
      {r.description && <p>{r.description}</p>}
      <div class="grid-2">
        <Panel title="Members">
          <ol class="members">
            {r.members.map((m) => (
              <li>
                {m.agent?.name ?? m.kind} {m.isHost && <Badge tone="info">host</Badge>}{' '}
                <span class="muted small">{m.kind}</span>
              </li>
            ))}
          </ol>
          {r.announcement && <div class="notice">{r.announcement}</div>}
          <RoomMembersEditor roomId={r.id} members={r.members} onChanged={() => void q.reload()} />
        </Panel>
        <Panel title="Live events">
          {events.length === 0 ? (
            <Empty>Waiting for something to happen in the room…</Empty>
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
      <Panel title="Recent rounds">
        {r.rounds.length === 0 ? (
          <Empty>No rounds yet.</Empty>
        ) : (
          <table class="table stack compact">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Started</th>
                <th scope="col">Asked in order</th>
                <th scope="col">Ended</th>
              </tr>
            </thead>
            <tbody>
              {[...r.rounds].reverse().map((round) => (
                <tr>
                  <td data-label="#">{round.seq}</td>
                  <td data-label="Started">
                    <Time at={round.startedAt} />
                  </td>
                  <td data-label="Asked in order">
                    {round.queue.map((agentId, i) => {
                      const answered = round.answers.find((a) => a.agentId === agentId);
                      const skipped = round.skips.find((s) => s.agentId === agentId);
                      const turn = round.askTurnIds[i];
                      const label = `${names[agentId] ?? agentId}${answered ? ' ✓' : skipped ? ` (skipped: ${skipped.reason})` : ''}`;
                      return (
                        <span class={`chip ${answered ? 'ok' : skipped ? 'muted' : ''}`}>
                          {turn ? <Link href={`/turns/${encodeURIComponent(turn)}`}>{label}</Link> : label}
                        </span>
                      );
                    })}
                  </td>
                  <td data-label="Ended">
                    {round.completed ? (round.endedBy ?? 'done') : <Badge tone="info">in progress</Badge>}
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
