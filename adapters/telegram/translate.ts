// Telegram Message → InboundEvent. Translation only: no rule lives here (SPEC §2).
// The fields we read are validated, so a malformed update is reported, never half-stored.
import { z } from 'zod';
import type { InboundEventInput } from '../../src/ingest/inboundEvent.js';

const telegramMessage = z.object({
  message_id: z.number().int(),
  message_thread_id: z.number().int().optional(),
  is_topic_message: z.boolean().optional(),
  date: z.number().int().nonnegative(),
  chat: z.object({ id: z.number().int(), type: z.enum(['private', 'group', 'supergroup', 'channel']) }),
  from: z
    .object({
      id: z.number().int(),
      is_bot: z.boolean(),
      first_name: z.string(),
      last_name: z.string().optional(),
      username: z.string().optional(),
      language_code: z.string().optional(),
    })
    .optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
});

export type TranslateResult = { ok: true; event: InboundEventInput } | { ok: false; reason: string };

export function translateMessage(raw: unknown): TranslateResult {
  const parsed = telegramMessage.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: `malformed message: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}` };
  const m = parsed.data;
  if (m.chat.type === 'channel' || !m.from) return { ok: false, reason: 'channel posts are not handled' };
  const name = [m.from.first_name, m.from.last_name].filter(Boolean).join(' ');
  return {
    ok: true,
    event: {
      platform: 'telegram',
      chat: {
        chatId: String(m.chat.id),
        ...(m.is_topic_message && m.message_thread_id !== undefined ? { threadId: String(m.message_thread_id) } : {}),
        kind: m.chat.type === 'private' ? 'private' : 'group',
      },
      platformMessageId: String(m.message_id),
      sender: {
        userId: String(m.from.id),
        isBot: m.from.is_bot,
        displayName: name,
        ...(m.from.username ? { username: m.from.username } : {}),
        ...(m.from.language_code ? { languageCode: m.from.language_code } : {}),
      },
      text: m.text ?? m.caption,
      sentAt: new Date(m.date * 1000),
    },
  };
}
