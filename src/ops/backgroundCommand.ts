// Seed 001's "switch background" as people do it in chat: `/background` lists the backgrounds,
// `/background 2` (or a name) switches to one, `/background off` leaves the story. Each
// background keeps its plot state in this dialogue, so switching back resumes it. The list is
// a query over the (short) background library: a command, not a turn, so off the hot path.
import type { BackgroundRequest } from '../domain/commands.js';
import { currentBeat } from '../domain/director.js';
import { text, type Locale } from '../i18n/texts.js';
import type { Store } from '../store/store.js';
import { switchBackground } from './stories.js';

/** How many backgrounds the chat list shows (and numbers). */
export const LISTED_BACKGROUNDS = 20;

export async function runBackgroundCommand(
  store: Store,
  c: { dialogueId: string; request: BackgroundRequest },
  locale: Locale,
  now: Date,
): Promise<string> {
  const [library, dialogue] = await Promise.all([
    store.stories.listBackgrounds(LISTED_BACKGROUNDS),
    store.dialogues.get(c.dialogueId),
  ]);
  // Oldest first, so a background keeps its number as new ones are added.
  const backgrounds = library.slice().reverse();
  const request = c.request;
  if (request.kind === 'off') {
    await switchBackground(store, c.dialogueId, null, now);
    return text('BACKGROUND_OFF', locale);
  }
  if (backgrounds.length === 0) return text('BACKGROUND_NONE_DEFINED', locale);
  if (request.kind === 'list') {
    const list = backgrounds.map((b, i) => `${i + 1}. ${b.name}`).join('\n');
    const current = backgrounds.find((b) => b._id === dialogue?.backgroundId)?.name ?? '—';
    return text('BACKGROUND_LIST', locale, { list, current });
  }
  const wanted =
    request.kind === 'pick'
      ? backgrounds[request.n - 1]
      : backgrounds.find((b) => b.name.toLowerCase() === request.name.toLowerCase());
  if (!wanted) return text('BACKGROUND_UNKNOWN', locale);
  const story = await switchBackground(store, c.dialogueId, wanted._id, now);
  const beat = story ? currentBeat(story.background, story.plot) : undefined;
  return text('BACKGROUND_SWITCHED', locale, {
    name: wanted.name,
    beat: beat?.n ?? story?.background.outline.length ?? 1,
  });
}
