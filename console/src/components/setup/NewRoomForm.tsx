// A new room: where it lives (platform and chat), its name, mode and host, members in asking
// order, the answer deadline and whether people take part. Opens the room once it exists.
import { useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { navigate } from '../../lib/router.js';
import { AgentName, nodes } from '../../lib/types.js';
import { useSubmit } from '../../lib/useSubmit.js';
import { Field, SetupForm } from './form.js';
import { MemberOrder } from './MemberOrder.js';
import { RoomFields, type RoomFieldValues } from './RoomFields.js';

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

const PLATFORMS = ['telegram', 'discord', 'web'] as const;

const FIELDS = ['chatId', 'threadId', 'name', 'description', 'agentIds', 'hostId', 'answerTimeoutSeconds'];
// Refusals that name no argument, by code: beside the input they are about.
const BY_CODE = { ROOM_EXISTS: 'chatId', NOT_A_MEMBER: 'hostId', NOT_FOUND: 'agentIds', BAD_REQUEST: 'agentIds' };

export function NewRoomForm() {
  const { t } = useI18n();
  const agents = nodes(useQuery(AGENTS).data?.agents);
  const [platform, setPlatform] = useState<(typeof PLATFORMS)[number]>('telegram');
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
  const e = submit.errors;
  return (
    <SetupForm
      needs="operator"
      busy={submit.busy}
      errors={e}
      submitLabel={t('setup.rooms.create')}
      onSubmit={() => void create()}
      testId="room-create-form"
    >
      <div class="setup-row">
        <Field id="room-platform" name="platform" label={t('setup.rooms.platform')} errors={e}>
          <select
            id="room-platform"
            value={platform}
            onChange={(ev) => setPlatform(ev.currentTarget.value as typeof platform)}
          >
            {PLATFORMS.map((p) => (
              <option value={p}>{p}</option>
            ))}
          </select>
        </Field>
        {platform === 'web' ? (
          <p class="muted small" data-testid="room-web-hint">
            {t('setup.rooms.webHint')}
          </p>
        ) : (
          <Field
            id="room-chat"
            name="chatId"
            label={t('setup.rooms.chatId')}
            hint={t('setup.rooms.chatIdHint')}
            errors={e}
          >
            <input id="room-chat" class="mono" value={chatId} onInput={(ev) => setChatId(ev.currentTarget.value)} />
          </Field>
        )}
      </div>
      <Field id="room-name" name="name" label={t('setup.rooms.name')} errors={e}>
        <input id="room-name" value={name} maxLength={100} onInput={(ev) => setName(ev.currentTarget.value)} />
      </Field>
      <Field id="room-description" name="description" label={t('setup.rooms.description')} errors={e}>
        <input id="room-description" value={description} onInput={(ev) => setDescription(ev.currentTarget.value)} />
      </Field>
      <Field
        id="room-members"
        name="agentIds"
        label={t('setup.rooms.members')}
        hint={t('setup.rooms.membersHint')}
        errors={e}
      >
        <MemberOrder id="room-members" agents={agents} value={members} onChange={setMembers} />
      </Field>
      <RoomFields
        idPrefix="room"
        errors={e}
        value={fields}
        onChange={(change) => setFields((f) => ({ ...f, ...change }))}
        hosts={members.map((id) => ({ id, name: names[id] ?? id }))}
        hostArg="hostId"
        noHost={t('setup.rooms.hostFirst')}
        hostInHostMode
        timeoutHint={t('setup.rooms.timeoutHint')}
      />
      <label class="inline-field">
        <input type="checkbox" checked={people} onChange={(ev) => setPeople(ev.currentTarget.checked)} />
        <span>{t('setup.rooms.people')}</span>
      </label>
    </SetupForm>
  );
}
