// A new room: where it lives (platform and chat), its name, mode and host, members in asking
// order, the answer deadline and whether people take part. Opens the room once it exists.
import { useI18n } from '../../lib/i18n.js';
import { Field, SetupForm } from './form.js';
import { MemberOrder } from './MemberOrder.js';
import { RoomFields } from './RoomFields.js';
import { RoomPlace } from './RoomPlace.js';
import { useNewRoom } from './useNewRoom.js';

export function NewRoomForm() {
  const { t } = useI18n();
  const f = useNewRoom();
  const { platform, chatId, name, description, members, fields, people } = f.draft;
  const e = f.submit.errors;
  return (
    <SetupForm
      needs="operator"
      busy={f.submit.busy}
      errors={e}
      submitLabel={t('setup.rooms.create')}
      onSubmit={() => void f.create()}
      testId="room-create-form"
    >
      <RoomPlace platform={platform} chatId={chatId} errors={e} onPlatform={f.setPlatform} onChatId={f.setChatId} />
      <Field id="room-name" name="name" label={t('setup.rooms.name')} errors={e}>
        <input id="room-name" value={name} maxLength={100} onInput={(ev) => f.setName(ev.currentTarget.value)} />
      </Field>
      <Field id="room-description" name="description" label={t('setup.rooms.description')} errors={e}>
        <input id="room-description" value={description} onInput={(ev) => f.setDescription(ev.currentTarget.value)} />
      </Field>
      <Field
        id="room-members"
        name="agentIds"
        label={t('setup.rooms.members')}
        hint={t('setup.rooms.membersHint')}
        errors={e}
      >
        <MemberOrder id="room-members" agents={f.agents} value={members} onChange={f.setMembers} />
      </Field>
      <RoomFields
        idPrefix="room"
        errors={e}
        value={fields}
        onChange={(change) => f.setFields((x) => ({ ...x, ...change }))}
        hosts={members.map((id) => ({ id, name: f.names[id] ?? id }))}
        hostArg="hostId"
        noHost={t('setup.rooms.hostFirst')}
        hostInHostMode
        timeoutHint={t('setup.rooms.timeoutHint')}
      />
      <label class="inline-field">
        <input type="checkbox" checked={people} onChange={(ev) => f.setPeople(ev.currentTarget.checked)} />
        <span>{t('setup.rooms.people')}</span>
      </label>
    </SetupForm>
  );
}
