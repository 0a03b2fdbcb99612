// The moderation gate among a reply's stream stages (SPEC §14): when replies are checked, nothing
// of the reply shows until it is complete and judged; a clean reply is then shown whole, a
// flagged one is replaced by the MODERATION_WITHHELD notice and stored as withheld (its text
// only in the trace event). When replies are not checked, text streams as usual.
import type { Released, StreamStage, StreamStageContext, StreamStageFactory } from '../delivery/streamStage.js';
import type { ModerationSettings } from '../domain/moderation.js';
import { text as notice, type Locale } from '../i18n/texts.js';
import { isNoteworthy, moderationEventData, withheldReason } from './moderationEvent.js';
import type { Moderator } from './moderator.js';

const passThrough = (): StreamStage => ({ push: (d) => d, end: () => '' });

/** Holds the whole reply, then lets it out or the notice once the moderator has judged it. */
function moderationGate(
  moderator: Moderator,
  settings: ModerationSettings,
  reply: StreamStageContext,
  locale: Locale,
): StreamStage {
  let held = '';
  return {
    push(delta) {
      held += delta;
      return '';
    },
    end: () => '',
    async release(): Promise<Released> {
      const text = held;
      held = '';
      if (!text.trim()) return { text };
      const verdict = await moderator.checkReply(settings, text);
      if (isNoteworthy(verdict)) await reply.record?.('moderation', moderationEventData('out', verdict, text));
      if (!verdict.flagged) return { text };
      return {
        text: notice('MODERATION_WITHHELD', locale),
        withheld: { code: 'REPLY_WITHHELD', message: withheldReason(verdict) },
      };
    },
  };
}

/**
 * One gate per reply, decided by the config its turn read: `moderation.check_replies` on, and
 * keywords or an endpoint to check with. Place it after stages that take text out (markers).
 */
export function moderationStageFactory(moderator: Moderator, o: { locale: Locale }): StreamStageFactory {
  return (reply) => {
    const settings = reply.config?.moderation;
    if (!settings || !moderator.checksReplies(settings)) return passThrough();
    return moderationGate(moderator, settings, reply, o.locale);
  };
}
