// Rooms (several agents in one chat): their members, mode and the round in progress. The list
// refreshes every few seconds; a room's page follows it live.
import { graphql } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { Link, navigate } from '../lib/router.js';
import { Empty, ErrorBox, Loading, PageHeader, Panel, StatusBadge, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { NewRoomForm } from '../components/setup/NewRoomForm.js';
import { modeLabel, RoomSummaryFields } from '../components/room/roomSummary.js';

const QUERY = graphql(
  `
    query Rooms {
      rooms {
        ...RoomSummaryFields
      }
    }
  `,
  [RoomSummaryFields],
);

export function Rooms() {
  const { t } = useI18n();
  const q = useQuery(QUERY, {}, { pollMs: 5000 });
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
                <th scope="col">{t('th.room')}</th>
                <th scope="col">{t('th.platformChat')}</th>
                <th scope="col">{t('th.mode')}</th>
                <th scope="col">{t('th.members')}</th>
                <th scope="col">{t('th.round')}</th>
                <th scope="col">{t('th.updated')}</th>
              </tr>
            </thead>
            <tbody>
              {q.data.rooms.map((r) => (
                <tr class="clickable" onClick={() => navigate(`/rooms/${encodeURIComponent(r.id)}`)}>
                  <td data-label={t('th.room')}>
                    <Link href={`/rooms/${encodeURIComponent(r.id)}`} class="strong">
                      {r.name}
                    </Link>{' '}
                    <StatusBadge status={r.status} />
                  </td>
                  <td data-label={t('th.platformChat')}>
                    {r.platform} <span class="mono small muted">{r.chatId}</span>
                  </td>
                  <td data-label={t('th.mode')}>
                    {modeLabel(t, r.mode)}
                    {!r.userParticipation && <span class="muted small"> · {t('rooms.agentsOnly')}</span>}
                  </td>
                  <td data-label={t('th.members')}>
                    {r.members
                      .map((m) =>
                        m.isHost ? t('rooms.memberHost', { name: m.agent?.name ?? m.kind }) : (m.agent?.name ?? m.kind),
                      )
                      .join(', ')}
                  </td>
                  <td data-label={t('th.round')}>
                    {r.currentRound
                      ? r.currentRound.completed
                        ? t('rooms.roundDone', { seq: r.currentRound.seq })
                        : `#${r.currentRound.seq} · ${r.currentRound.index + 1}/${r.currentRound.queue.length}`
                      : '—'}
                  </td>
                  <td data-label={t('th.updated')}>
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
