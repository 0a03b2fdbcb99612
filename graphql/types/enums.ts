import { builder } from '../builder.js';
import { CONTENT_TYPES } from '../../src/domain/model.js';

export const DialogueTypeEnum = builder.enumType('DialogueType', { values: ['human_ai', 'ai_ai', 'ai_self', 'lio_group', 'group'] as const });
export const RoleEnum = builder.enumType('Role', { values: ['human', 'ai', 'system'] as const });
export const TurnStatusEnum = builder.enumType('TurnStatus', { values: ['pending', 'responded', 'unresponded'] as const });
export const ContentTypeEnum = builder.enumType('ContentType', { values: CONTENT_TYPES });
export const DeliveryStateEnum = builder.enumType('DeliveryState', {
  values: ['streaming', 'complete', 'interrupted', 'empty', 'error', 'timeout'] as const,
});
export const PlatformEnum = builder.enumType('Platform', { values: ['telegram', 'discord'] as const });
