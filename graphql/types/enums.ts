import { builder } from '../builder.js';
import { PLATFORM_NAMES } from '../../src/domain/platformNames.js';
import { CONTENT_TYPES, MEMORY_KINDS } from '../../src/domain/model.js';

export const DialogueTypeEnum = builder.enumType('DialogueType', {
  values: ['human_ai', 'ai_ai', 'ai_self', 'lio_group', 'group'] as const,
});
export const RoleEnum = builder.enumType('Role', { values: ['human', 'ai', 'system'] as const });
export const TurnStatusEnum = builder.enumType('TurnStatus', {
  values: ['pending', 'responded', 'unresponded'] as const,
});
export const ContentTypeEnum = builder.enumType('ContentType', { values: CONTENT_TYPES });
export const DeliveryStateEnum = builder.enumType('DeliveryState', {
  values: ['streaming', 'complete', 'interrupted', 'empty', 'error', 'timeout'] as const,
});
// One value per registered adapter (src/domain/platformNames.ts).
export const PlatformEnum = builder.enumType('Platform', { values: PLATFORM_NAMES });
export const DialogueStatusEnum = builder.enumType('DialogueStatus', { values: ['active', 'archived'] as const });
export const SessionKindEnum = builder.enumType('SessionKind', { values: ['dialogue', 'self_reflection'] as const });
export const SessionStatusEnum = builder.enumType('SessionStatus', { values: ['open', 'closed'] as const });
export const MemoryKindEnum = builder.enumType('MemoryKind', { values: MEMORY_KINDS });
export const MemoryStatusEnum = builder.enumType('MemoryStatus', {
  values: ['active', 'superseded', 'merged', 'pruned'] as const,
});
export const EventKindEnum = builder.enumType('EventKind', {
  values: [
    'context_built',
    'llm_call',
    'tool_call',
    'system_utterance',
    'warning',
    'delivery',
    'floor',
    'director',
    'moderation',
  ] as const,
});
