// Filter arguments shared by the list fields, and their translation into Mongo conditions.
// Windows are since (inclusive) .. until (exclusive); since after until is BAD_REQUEST.
import type { Filter } from 'mongodb';
import { builder } from '../builder.js';
import type {
  ContentType,
  Dialogue,
  DialogueType,
  Message,
  Platform,
  Role,
  Session,
  SessionKind,
  Turn,
  TurnStatus,
} from '../../src/domain/model.js';
import { windowCondition, type TimeWindow } from '../../src/query/timeWindow.js';
import {
  ContentTypeEnum,
  DialogueStatusEnum,
  DialogueTypeEnum,
  PlatformEnum,
  RoleEnum,
  SessionKindEnum,
  SessionStatusEnum,
  TurnStatusEnum,
} from './enums.js';

export const windowArgs = builder.args((t) => ({
  since: t.field({ type: 'DateTime', description: 'Only records at or after this instant.' }),
  until: t.field({ type: 'DateTime', description: 'Only records before this instant.' }),
}));

export const dialogueFilterArgs = builder.args((t) => ({
  type: t.field({ type: DialogueTypeEnum }),
  platform: t.field({ type: PlatformEnum }),
  status: t.field({ type: DialogueStatusEnum }),
  ...windowArgs,
}));

export const sessionFilterArgs = builder.args((t) => ({
  kind: t.field({ type: SessionKindEnum }),
  status: t.field({ type: SessionStatusEnum }),
  ...windowArgs,
}));

export const turnFilterArgs = builder.args((t) => ({
  status: t.field({ type: TurnStatusEnum }),
  ...windowArgs,
}));

export const messageFilterArgs = builder.args((t) => ({
  role: t.field({ type: RoleEnum, description: 'The sender role.' }),
  contentType: t.field({ type: ContentTypeEnum }),
  ...windowArgs,
}));

type Maybe<T> = T | null | undefined;
const eq = (field: string, v: Maybe<string>): Record<string, string> => (v ? { [field]: v } : {});

/** Dialogues by type, platform, status and last activity. */
export function dialogueFilter(
  a: { type?: Maybe<DialogueType>; platform?: Maybe<Platform>; status?: Maybe<string> } & TimeWindow,
): Filter<Dialogue> {
  return {
    ...eq('type', a.type),
    ...eq('chat.platform', a.platform),
    ...eq('status', a.status),
    ...windowCondition('lastActivityAt', a),
  };
}

/** Sessions by kind, status and start. */
export function sessionFilter(a: { kind?: Maybe<SessionKind>; status?: Maybe<string> } & TimeWindow): Filter<Session> {
  return { ...eq('kind', a.kind), ...eq('status', a.status), ...windowCondition('startedAt', a) };
}

/** Turns by status and start. */
export function turnFilter(a: { status?: Maybe<TurnStatus> } & TimeWindow): Filter<Turn> {
  return { ...eq('status', a.status), ...windowCondition('startedAt', a) };
}

/** Messages by sender role, content type and creation. */
export function messageFilter(
  a: { role?: Maybe<Role>; contentType?: Maybe<ContentType> } & TimeWindow,
): Filter<Message> {
  return { ...eq('senderRole', a.role), ...eq('contentType', a.contentType), ...windowCondition('createdAt', a) };
}
