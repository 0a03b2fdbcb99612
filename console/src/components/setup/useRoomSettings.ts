// Why a hook: the form only lays out; this holds the stored settings, the draft and the two-step save.
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { useLeaveGuard } from '../../lib/leaveGuard.js';
import { useSubmit } from '../../lib/useSubmit.js';
import type { RoomFieldValues } from './RoomFields.js';

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
export interface Draft extends RoomFieldValues {
  name: string;
}

// The API's argument names, which its BAD_REQUEST names; the host is setRoomHost's memberId.
const FIELDS = ['name', 'mode', 'answerTimeoutSeconds', 'memberId'];
const BY_CODE = { NOT_A_MEMBER: 'memberId', NOT_FOUND: 'memberId' };

/** `updatedAt` is the room's as the page has it: a change elsewhere (members) reads it again. */
export function useRoomSettings(p: { roomId: string; updatedAt: string; onSaved: () => void }) {
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
  // Used only once the draft is shown (the form waits for it).
  const set = (change: Partial<Draft>) => {
    if (!draft) return;
    setSaved(false);
    setDraft({ ...draft, ...change });
  };
  return { q, room, stored, draft, dirty, saved, submit, save, set };
}
