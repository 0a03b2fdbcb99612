// What the room list and a room's page both show of a room: its fields and its mode in words.
import { graphql } from '../../lib/graphql.js';
import type { I18n } from '../../lib/i18n.js';
import { isMessageKey } from '../../i18n/messages.js';
import { RoomMemberFields } from '../setup/RoomMembersEditor.js';

export const RoomSummaryFields = graphql(
  `
    fragment RoomSummaryFields on Room {
      id
      name
      platform
      chatId
      mode
      status
      userParticipation
      updatedAt
      members {
        ...RoomMemberFields
        isHost
      }
      currentRound {
        seq
        index
        queue
        completed
      }
    }
  `,
  [RoomMemberFields],
);

/** A room's mode (DEFAULT, HOST) as a word; an unknown mode in lower case as before. */
export function modeLabel(t: I18n['t'], mode: string): string {
  const key = `rooms.mode.${mode.toLowerCase()}`;
  return isMessageKey(key) ? t(key) : mode.toLowerCase();
}
