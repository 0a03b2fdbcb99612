// A room's members changed in place: an agent joins as the last one asked, a member leaves (if it
// is being asked now it is skipped and the round goes on).
import { useState } from 'preact/hooks';
import { errorText, gql } from '../../lib/api.js';
import { graphql, type FragmentOf } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { nodes } from '../../lib/types.js';
import { useCan } from '../../lib/viewerContext.js';

const AGENTS = graphql(`
  query RoomAgents {
    agents(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);
const ADD = graphql(`
  mutation AddMember($id: ID!, $agentId: ID!) {
    addRoomMember(id: $id, agentId: $agentId) {
      id
    }
  }
`);
const REMOVE = graphql(`
  mutation RemoveMember($id: ID!, $memberId: ID!) {
    removeRoomMember(id: $id, memberId: $memberId) {
      id
    }
  }
`);

/** What the editor reads of each member; the room's query spreads it. */
export const RoomMemberFields = graphql(`
  fragment RoomMemberFields on RoomMember {
    id
    kind
    agent {
      id
      name
    }
  }
`);
type Member = FragmentOf<typeof RoomMemberFields>;

export function RoomMembersEditor(p: { roomId: string; members: Member[]; onChanged: () => void }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const agents = nodes(useQuery(AGENTS, {}, { skip: !canAct }).data?.agents);
  const [pick, setPick] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inRoom = new Set(p.members.map((m) => m.id));
  const left = agents.filter((a) => !inRoom.has(a.id));
  const run = async (mutation: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await mutation();
      setPick('');
      p.onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  if (!canAct) return null;
  return (
    <div class="room-members-editor" data-testid="room-members-editor">
      <h3>{t('setup.rooms.manageMembers')}</h3>
      <ul class="plain-list">
        {p.members.map((m) => (
          <li class="row">
            <span class="grow">{m.agent?.name ?? m.kind}</span>
            <button
              type="button"
              class="small danger"
              disabled={busy}
              onClick={() => void run(() => gql(REMOVE, { id: p.roomId, memberId: m.id }))}
              aria-label={t('setup.rooms.removeNamed', { name: m.agent?.name ?? m.id })}
            >
              {t('setup.rooms.removeMember')}
            </button>
          </li>
        ))}
      </ul>
      <div class="row">
        <select value={pick} onChange={(e) => setPick(e.currentTarget.value)} aria-label={t('setup.rooms.pickAgent')}>
          {left.map((a) => (
            <option value={a.id}>{a.name}</option>
          ))}
        </select>
        <button
          type="button"
          class="small"
          disabled={busy || left.length === 0}
          // Disabled while no agent is left to add, so there is one to fall back to.
          onClick={() => void run(() => gql(ADD, { id: p.roomId, agentId: pick || left[0]!.id }))}
        >
          {t('setup.rooms.addMember')}
        </button>
      </div>
      {error && (
        <div class="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
