// A room's settings changed on its page: name, interaction mode, answer deadline and host
// (updateRoom, then setRoomHost when the host changed). The API checks them (a name of 1–100
// characters, a deadline of 5–3600 s) and its refusal shows beside the field with the code.
// Viewers see the form disabled; leaving with unsaved edits asks first.
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { useLeaveGuard } from '../../lib/leaveGuard.js';
import { useSubmit } from '../../lib/useSubmit.js';
import { ErrorBox, Loading, Panel } from '../ui.js';
import { Field, SetupForm } from './form.js';
import { RoomFields, type RoomFieldValues } from './RoomFields.js';

const ROOM = graphql(`
  query RoomSettings($id: ID!) {
    room(id: $id) {
      id
      name
      mode
      answerTimeoutSeconds
      members {
        id
        kind
        isHost
        agent {
          id
          name
        }
      }
    }
  }
`);
const UPDATE = graphql(`
  mutation UpdateRoomSettings($id: ID!, $name: String, $mode: RoomMode, $answerTimeoutSeconds: Int) {
    updateRoom(id: $id, name: $name, mode: $mode, answerTimeoutSeconds: $answerTimeoutSeconds) {
      id
    }
  }
`);
const SET_HOST = graphql(`
  mutation SetRoomHost($id: ID!, $memberId: ID!) {
    setRoomHost(id: $id, memberId: $memberId) {
      id
    }
  }
`);

/** The host's id is the member's (blank while the room has none); a blank timeout leaves the deadline as it is. */
interface Draft extends RoomFieldValues {
  name: string;
}

// The API's argument names, which its BAD_REQUEST names; the host is setRoomHost's memberId.
const FIELDS = ['name', 'mode', 'answerTimeoutSeconds', 'memberId'];
const BY_CODE = { NOT_A_MEMBER: 'memberId', NOT_FOUND: 'memberId' };

/** `updatedAt` is the room's as the page has it: a change elsewhere (members) reads it again. */
export function RoomSettingsForm(p: { roomId: string; updatedAt: string; onSaved: () => void }) {
  const { t } = useI18n();
  const q = useQuery(ROOM, { id: p.roomId });
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else void q.reload();
  }, [p.updatedAt]);

  const room = q.data?.room;
  const stored: Draft | null = room
    ? {
        name: room.name,
        mode: room.mode,
        timeout: room.answerTimeoutSeconds === null ? '' : String(room.answerTimeoutSeconds),
        hostId: room.members.find((m) => m.isHost)?.id ?? '',
      }
    : null;
  const storedKey = JSON.stringify(stored);
  const [draft, setDraft] = useState<Draft | null>(null);
  // The stored settings changed (a save, another operator): the form shows them afresh.
  useEffect(() => setDraft(stored), [storedKey]);
  const dirty = draft !== null && JSON.stringify(draft) !== storedKey;
  const [saved, setSaved] = useState(false);
  useLeaveGuard(dirty, t('setup.roomSettings.leave'));

  const submit = useSubmit(
    async () => {
      if (!draft || !stored) return false;
      const timeout = draft.timeout.trim();
      const changes = {
        ...(draft.name !== stored.name ? { name: draft.name } : {}),
        ...(draft.mode !== stored.mode ? { mode: draft.mode } : {}),
        // Sent as typed (whole seconds) so the API's range check answers.
        ...(timeout && timeout !== stored.timeout ? { answerTimeoutSeconds: Math.trunc(Number(timeout)) } : {}),
      };
      if (Object.keys(changes).length) await gql(UPDATE, { id: p.roomId, ...changes });
      if (draft.hostId && draft.hostId !== stored.hostId) await gql(SET_HOST, { id: p.roomId, memberId: draft.hostId });
      return true;
    },
    FIELDS,
    BY_CODE,
  );
  const save = async () => {
    const ok = await submit.run();
    // Also after a refusal: the name may be saved when the host was refused.
    await q.reload();
    if (!ok) return;
    setSaved(true);
    p.onSaved();
  };

  const title = t('setup.roomSettings.title');
  if (q.error)
    return (
      <Panel title={title}>
        <ErrorBox error={q.error} />
      </Panel>
    );
  if (!room || !draft) return <Loading />;
  const set = (change: Partial<Draft>) => {
    setSaved(false);
    setDraft({ ...draft, ...change });
  };
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
