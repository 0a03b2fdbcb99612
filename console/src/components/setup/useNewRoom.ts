// Why a hook: the form only lays out; this holds the new room's draft, the agents to choose and the create call.
import { useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { navigate } from '../../lib/router.js';
import { AgentName, nodes } from '../../lib/types.js';
import { useSubmit } from '../../lib/useSubmit.js';
import type { RoomFieldValues } from './RoomFields.js';

const AGENTS = graphql(
  `
    query RoomAgents {
      agents(first: 100) {
        edges {
          node {
            ...AgentName
          }
        }
      }
    }
  `,
  [AgentName],
);
const CREATE = graphql(`
  mutation CreateRoom($input: CreateRoomInput!) {
    createRoom(input: $input) {
      id
    }
  }
`);

export const PLATFORMS = ['telegram', 'discord', 'web'] as const;
export type RoomPlatform = (typeof PLATFORMS)[number];

const FIELDS = ['chatId', 'threadId', 'name', 'description', 'agentIds', 'hostId', 'answerTimeoutSeconds'];
// Refusals that name no argument, by code: beside the input they are about.
const BY_CODE = { ROOM_EXISTS: 'chatId', NOT_A_MEMBER: 'hostId', NOT_FOUND: 'agentIds', BAD_REQUEST: 'agentIds' };

/** The draft's parts, createRoom with the API's refusals by field, and opening the room once it exists. */
export function useNewRoom() {
  const agents = nodes(useQuery(AGENTS).data?.agents);
  const [platform, setPlatform] = useState<RoomPlatform>('telegram');
  const [chatId, setChatId] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [members, setMembers] = useState<string[]>([]);
  const [fields, setFields] = useState<RoomFieldValues>({ mode: 'DEFAULT', hostId: '', timeout: '' });
  const { mode, hostId, timeout } = fields;
  const [people, setPeople] = useState(true);
  const submit = useSubmit(
    async () => {
      const input = {
        platform,
        // A web room gets a new web conversation of its own.
        ...(platform === 'web' ? {} : { chatId }),
        name,
        ...(description.trim() ? { description } : {}),
        mode,
        agentIds: members,
        ...(mode === 'HOST' && hostId && members.includes(hostId) ? { hostId } : {}),
        // Blank: the deployment's deadline. Sent as typed so the API's range check answers.
        ...(timeout.trim() ? { answerTimeoutSeconds: Math.trunc(Number(timeout)) } : {}),
        userParticipation: people,
      };
      return (await gql(CREATE, { input })).createRoom;
    },
    FIELDS,
    BY_CODE,
  );
  const create = async () => {
    const room = await submit.run();
    if (room) navigate(`/rooms/${encodeURIComponent(room.id)}`);
  };
  const names = Object.fromEntries(agents.map((a) => [a.id, a.name]));
  return {
    agents,
    names,
    submit,
    create,
    draft: { platform, chatId, name, description, members, fields, people },
    setPlatform,
    setChatId,
    setName,
    setDescription,
    setMembers,
    setFields,
    setPeople,
  };
}
