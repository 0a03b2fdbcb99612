// Group activation (SPEC §7): in a group the AI answers only when addressed — @mentioned,
// replied to, or called by name — or when the group asked it to answer everything; other
// messages are kept as context. Private chats are always addressed. Pure.

export interface AddressCheck {
  chatKind: 'private' | 'group';
  /** The message @mentions our bot account (user, username or one of its roles). */
  mentioned: boolean;
  /** The message replies to one of our AI's messages. */
  repliedTo: boolean;
  /** The message calls the agent by name or alias. */
  named: boolean;
  /** The group's "answer everything" setting. */
  answerAll: boolean;
  /** Sent by another bot: never answered, so two bots cannot talk each other into a loop. */
  fromOtherBot: boolean;
}

export type Activation =
  | { answer: true; why: 'private' | 'mentioned' | 'replied_to' | 'named' | 'answer_all' }
  | { answer: false; why: 'other_bot' | 'not_addressed' };

export function activation(c: AddressCheck): Activation {
  if (c.fromOtherBot) return { answer: false, why: 'other_bot' };
  if (c.chatKind === 'private') return { answer: true, why: 'private' };
  if (c.mentioned) return { answer: true, why: 'mentioned' };
  if (c.repliedTo) return { answer: true, why: 'replied_to' };
  if (c.named) return { answer: true, why: 'named' };
  if (c.answerAll) return { answer: true, why: 'answer_all' };
  return { answer: false, why: 'not_addressed' };
}

/**
 * Whether `text` calls someone by one of `names`. Latin names must stand as a word ("Rainbow,"
 * yes, "rainbows" no); CJK names have no word boundaries, so a substring counts.
 */
export function callsByName(text: string | undefined, names: readonly string[]): boolean {
  if (!text) return false;
  const hay = text.toLowerCase();
  return names.some((raw) => {
    const name = raw.trim().toLowerCase();
    if (name.length === 0) return false;
    if (/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(name)) return hay.includes(name);
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[^\\p{L}\\p{N}_])${escaped}($|[^\\p{L}\\p{N}_])`, 'u').test(hay);
  });
}
