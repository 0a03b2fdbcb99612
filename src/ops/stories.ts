// Seed 001's backgrounds as operator actions: define one, switch a dialogue (or a room's dialogue)
// to one — its plot state for that background is kept, so switching back resumes the story — and
// set a beat's status by hand. Decisions under the dialogue's state guard, writes by `_id`.
import { GatewayError } from '../errors.js';
import { newId } from '../domain/ids.js';
import { applyStep, freshPlot, outlineProblems, type Background, type BeatStatus } from '../domain/story.js';
import type { Story } from '../store/stories.js';
import type { Store } from '../store/store.js';
import { guardKeys } from '../store/stateGuard.js';

export async function createBackground(
  store: Store,
  o: { name: string; worldSetting: string; beats: string[] },
  at: Date,
): Promise<Background> {
  const problems = outlineProblems(o);
  if (problems.length > 0)
    throw new GatewayError('BAD_REQUEST', problems.map((p) => `${p.field}: ${p.message}`).join('; '));
  const b: Background = {
    _id: newId('bgd', at),
    name: o.name.trim(),
    worldSetting: o.worldSetting,
    outline: o.beats.map((text, i) => ({ n: i + 1, text: text.trim() })),
    createdAt: at,
    updatedAt: at,
  };
  await store.stories.createBackground(b);
  return b;
}

/**
 * An operator's edit of a background: fields left out keep their value; the whole is checked like
 * a new one. Beats keep their numbers by position, so a dialogue's plot state still applies.
 */
export async function updateBackground(
  store: Store,
  id: string,
  o: { name?: string; worldSetting?: string; beats?: string[] },
  at: Date,
): Promise<Background> {
  const old = await store.stories.getBackground(id);
  if (!old) throw new GatewayError('NOT_FOUND', `no background with id ${id}`);
  const next = {
    name: o.name ?? old.name,
    worldSetting: o.worldSetting ?? old.worldSetting,
    beats: o.beats ?? old.outline.map((b) => b.text),
  };
  const problems = outlineProblems(next);
  if (problems.length > 0)
    throw new GatewayError('BAD_REQUEST', problems.map((p) => `${p.field}: ${p.message}`).join('; '));
  const b: Background = {
    ...old,
    name: next.name.trim(),
    worldSetting: next.worldSetting,
    outline: next.beats.map((text, i) => ({ n: i + 1, text: text.trim() })),
    updatedAt: at,
  };
  await store.stories.replaceBackground(b);
  return b;
}

export type { Story } from '../store/stories.js';

export async function storyOf(store: Store, dialogueId: string, at: Date): Promise<Story | null> {
  const d = await store.dialogues.get(dialogueId);
  return d ? store.stories.ofDialogue(d, at) : null;
}

/** Seed 001's "switch background": the next context follows it; each background keeps its plot state. */
export async function switchBackground(
  store: Store,
  dialogueId: string,
  backgroundId: string | null,
  at: Date,
): Promise<Story | null> {
  const dialogue = await store.dialogues.get(dialogueId);
  if (!dialogue) throw new GatewayError('CONVERSATION_NOT_FOUND', `no dialogue with id ${dialogueId}`);
  const background = backgroundId ? await store.stories.getBackground(backgroundId) : null;
  if (backgroundId && !background) throw new GatewayError('NOT_FOUND', `no background with id ${backgroundId}`);
  await store.guard.run(guardKeys.dialogue(dialogueId), async () => {
    await store.dialogues.setBackground(dialogueId, backgroundId, at);
    // A background taken up for the first time here starts its story; one seen before resumes.
    if (background && !(await store.stories.getPlot(dialogueId, background._id)))
      await store.stories.savePlot(freshPlot(dialogueId, background, at));
  });
  // The director's fallback looks for this storyline among the agents' other dialogues.
  if (background) await store.stories.noteInstance(dialogue.agentIds, background._id, dialogueId, at);
  await store.events.record({
    kind: 'director',
    dialogueId,
    data: { by: 'operator', switchedTo: backgroundId, from: dialogue.backgroundId ?? null },
    at,
  });
  return storyOf(store, dialogueId, at);
}

/** An operator sets a beat's status (the director does the same from a reply's markers). */
export async function setBeatStatus(
  store: Store,
  dialogueId: string,
  o: { n: number; status: BeatStatus; messageIds?: string[] },
  at: Date,
): Promise<Story> {
  return store.guard.run(guardKeys.dialogue(dialogueId), async () => {
    const story = await storyOf(store, dialogueId, at);
    if (!story) throw new GatewayError('NOT_FOUND', `dialogue ${dialogueId} follows no background`);
    const r = applyStep(story.plot, story.background, {
      n: o.n,
      status: o.status,
      at,
      by: 'operator',
      messageIds: o.messageIds ?? [],
    });
    if (!r.ok)
      throw new GatewayError(
        'BAD_REQUEST',
        `beat ${o.n} is not in "${story.background.name}" (1–${story.background.outline.length})`,
      );
    await store.stories.savePlot(r.plot);
    await store.events.record({
      kind: 'director',
      dialogueId,
      data: { backgroundId: story.background._id, by: 'operator', applied: [{ n: o.n, status: o.status }] },
      at,
    });
    return { background: story.background, plot: r.plot };
  });
}

/** The director on or off for a dialogue (a room's too); a `director` event tells live views. */
export async function setDirector(store: Store, dialogueId: string, on: boolean, at: Date): Promise<boolean> {
  if (!(await store.dialogues.get(dialogueId)))
    throw new GatewayError('CONVERSATION_NOT_FOUND', `no dialogue with id ${dialogueId}`);
  await store.dialogues.setDirector(dialogueId, on, at);
  await store.events.record({ kind: 'director', dialogueId, data: { by: 'operator', director: on }, at });
  return on;
}
