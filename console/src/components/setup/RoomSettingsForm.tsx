// A room's settings changed on its page: name, interaction mode, answer deadline and host
// (updateRoom, then setRoomHost when the host changed). The API checks them (a name of 1–100
// characters, a deadline of 5–3600 s) and its refusal shows beside the field with the code.
// Viewers see the form disabled; leaving with unsaved edits asks first.
import { useI18n } from '../../lib/i18n.js';
import { ErrorBox, Loading, Panel } from '../ui.js';
import { Field, SetupForm } from './form.js';
import { RoomFields } from './RoomFields.js';
import { useRoomSettings } from './useRoomSettings.js';

/** `updatedAt` is the room's as the page has it: a change elsewhere (members) reads it again. */
export function RoomSettingsForm(p: { roomId: string; updatedAt: string; onSaved: () => void }) {
  const { t } = useI18n();
  const { q, room, stored, draft, dirty, saved, submit, save, set } = useRoomSettings(p);
  const title = t('setup.roomSettings.title');
  if (q.error)
    return (
      <Panel title={title}>
        <ErrorBox error={q.error} />
      </Panel>
    );
  if (!room || !draft) return <Loading />;
  const e = submit.errors;
  return (
    <Panel title={title}>
      <SetupForm
        needs="operator"
        busy={submit.busy}
        errors={e}
        submitLabel={t('setup.common.save')}
        onSubmit={() => void save()}
        testId="room-settings-form"
        extra={
          saved && !dirty ? (
            <span class="muted small" role="status" data-testid="room-settings-saved">
              {t('setup.common.saved')}
            </span>
          ) : null
        }
      >
        <Field id="room-settings-name" name="name" label={t('setup.rooms.name')} errors={e}>
          <input
            id="room-settings-name"
            value={draft.name}
            maxLength={100}
            onInput={(ev) => set({ name: ev.currentTarget.value })}
          />
        </Field>
        <RoomFields
          idPrefix="room-settings"
          errors={e}
          value={draft}
          onChange={set}
          hosts={room.members.map((m) => ({ id: m.id, name: m.agent?.name ?? m.id }))}
          hostArg="memberId"
          hostHint={t('setup.roomSettings.hostHint')}
          noHost={stored?.hostId ? undefined : t('setup.roomSettings.noHost')}
          hostInHostMode={false}
          timeoutHint={t('setup.roomSettings.timeoutHint')}
        />
      </SetupForm>
    </Panel>
  );
}
