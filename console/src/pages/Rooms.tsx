// Rooms (several agents in one chat): their members, mode and the round in progress. The list
// refreshes every few seconds; a room's page follows it live.
import { useQuery } from '../lib/hooks.js';
import { Link, navigate } from '../lib/router.js';
import { Badge, Empty, ErrorBox, Loading, PageHeader, Panel, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { NewRoomForm } from '../components/setup/NewRoomForm.js';

export interface RoomSummary {
  id: string;
  name: string;
  platform: string;
  chatId: string;
  mode: string;
  status: string;
  userParticipation: boolean;
  updatedAt: string;
  members: Array<{ id: string; kind: string; isHost: boolean; agent: { id: string; name: string } | null }>;
  currentRound: { seq: number; index: number; queue: string[]; completed: boolean } | null;
}

export const ROOM_FIELDS = `id name platform chatId mode status userParticipation updatedAt
  members { id kind isHost agent { id name } } currentRound { seq index queue completed }`;

const QUERY = `query Rooms { rooms { ${ROOM_FIELDS} } }`;

export function Rooms() {
  const { t } = useI18n();
  const q = useQuery<{ rooms: RoomSummary[] }>(QUERY, {}, { pollMs: 5000 });
  return (
    <>
      <PageHeader title={t('rooms.title')} sub={t('rooms.sub')} />
      <ErrorBox error={q.error} />
      <Panel>
        {!q.data ? (
          <Loading what="rooms" />
        ) : q.data.rooms.length === 0 ? (
          <Empty>{t('setup.rooms.empty')}</Empty>
        ) : (
          <table class="table stack">
            <thead>
              <tr>
                <th scope="col">Room</th>
                <th scope="col">Platform · chat</th>
                <th scope="col">Mode</th>
                <th scope="col">Members</th>
                <th scope="col">Round</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {q.data.rooms.map((r) => (
                <tr class="clickable" onClick={() => navigate(`/rooms/${encodeURIComponent(r.id)}`)}>
                  <td data-label="Room">
                    <Link href={`/rooms/${encodeURIComponent(r.id)}`} class="strong">
                      {r.name}
                    </Link>{' '}
                    <Badge>{r.status}</Badge>
                  </td>
                  <td data-label="Platform · chat">
                    {r.platform} <span class="mono small muted">{r.chatId}</span>
                  </td>
                  <td data-label="Mode">
                    {r.mode.toLowerCase()}
                    {!r.userParticipation && <span class="muted small"> · agents only</span>}
                  </td>
                  <td data-label="Members">
                    {r.members.map((m) => (m.agent?.name ?? m.kind) + (m.isHost ? ' (host)' : '')).join(', ')}
                  </td>
                  <td data-label="Round">
                    {r.currentRound
                      ? `#${r.currentRound.seq}${r.currentRound.completed ? ' done' : ` · ${r.currentRound.index + 1}/${r.currentRound.queue.length}`}`
                      : '—'}
                  </td>
                  <td data-label="Updated">
                    <Time at={r.updatedAt} relative />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
      <Panel title={t('setup.rooms.new')}>
        <NewRoomForm />
      </Panel>
    </>
  );
}
