// The one shape every adapter translates platform updates into (SPEC §2). Validated at the
// boundary so a bug in an adapter cannot write a malformed record.
import { z } from 'zod';

export const inboundEventSchema = z.object({
  platform: z.enum(['telegram', 'discord']),
  chat: z.object({
    chatId: z.string().min(1),
    threadId: z.string().min(1).optional(),
    kind: z.enum(['private', 'group']),
  }),
  platformMessageId: z.string().min(1),
  sender: z.object({
    userId: z.string().min(1),
    isBot: z.boolean(),
    username: z.string().optional(),
    displayName: z.string().optional(),
    /** IETF tag from the platform (Telegram's language_code), used to pick notice language. */
    languageCode: z.string().optional(),
  }),
  /** Text or caption; undefined for content we cannot read yet. */
  text: z.string().optional(),
  sentAt: z.date(),
});

export type InboundEvent = z.infer<typeof inboundEventSchema>;
