// Seed 001's fallback (容错RAG): when the story has not moved for `rag_fallback_threshold` replies,
// the reminder quotes what already happened in this story — the replies that moved it and the
// agent's recalled events about this person — and how the stuck beat went in other dialogues of
// the same agent and background (their progress replies, the AI's narration only: never another
// person's words). Every read is by `_id`: the instance list, the plots, the messages.
import type { Message } from '../domain/model.js';
import type { RecallPlace } from '../domain/memoryOrigin.js';
import { beatEvidence, storySoFar, withoutMarkers, type ReminderEvidence } from '../domain/director.js';
import type { Beat } from '../domain/story.js';
import type { Story } from '../store/stories.js';
import type { ContextDeps } from './contextReads.js';

/** What this story's own record contributes, and how many other storylines are quoted. */
const OWN_REPLIES = 4;
const RECALLED_EVENTS = 3;
const OTHER_STORYLINES = 5;
const ELSEWHERE = 3;
/** A step cites its reply and the messages it answered: the newest few are enough to find the reply. */
const EVIDENCE_READS = 6;

export interface FallbackEvidence extends ReminderEvidence {
  /** For the trace: where each quoted line came from. */
  sources: { messageIds: string[]; memoryIds: string[]; dialogueIds: string[] };
}

export async function gatherFallback(
  deps: Pick<ContextDeps, 'store' | 'recall' | 'log'>,
  o: { story: Story; beat: Beat; dialogueId: string; agentId: string; humanId?: string; place: RecallPlace; now: Date },
): Promise<FallbackEvidence> {
  const [own, recalled, elsewhere] = await Promise.all([
    aiReplies(deps, storySoFar(o.story.plot).slice(-OWN_REPLIES * 3), OWN_REPLIES),
    recallEvents(deps, o),
    otherStorylines(deps, o),
  ]);
  // Replies are quoted as people saw them: markers out, by the director's one grammar (withoutMarkers).
  return {
    happened: [...own.map((m) => withoutMarkers(m.content)), ...recalled.map((m) => m.text)],
    elsewhere: elsewhere.messages.map((m) => withoutMarkers(m.content)),
    sources: {
      messageIds: [...own, ...elsewhere.messages].map((m) => m._id),
      memoryIds: recalled.map((m) => m.id),
      dialogueIds: elsewhere.dialogueIds,
    },
  };
}

/** The newest `keep` of these messages that the AI said, oldest first. */
async function aiReplies(deps: Pick<ContextDeps, 'store'>, ids: string[], keep: number): Promise<Message[]> {
  const read = await Promise.all([...new Set(ids)].map((id) => deps.store.messages.get(id)));
  return read
    .filter((m): m is Message => m !== null && m.senderRole === 'ai' && withoutMarkers(m.content) !== '')
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .slice(-keep);
}

/** The agent's remembered events about this person that bear on the beat (seed 001: 当前实例事件). */
async function recallEvents(
  deps: Pick<ContextDeps, 'recall' | 'log'>,
  o: { beat: Beat; agentId: string; humanId?: string; place: RecallPlace; now: Date },
) {
  if (!deps.recall || !o.humanId) return [];
  const r = await deps.recall
    .recall({
      ownerId: o.agentId,
      subjectId: o.humanId,
      message: o.beat.text,
      topK: RECALLED_EVENTS,
      now: o.now,
      kinds: ['event', 'plot'],
      countRecall: false,
      place: o.place,
    })
    .catch((err: unknown) => {
      deps.log.warn({ err }, 'director fallback: recall failed');
      return undefined;
    });
  return r?.memories ?? [];
}

/** The beat's progress replies in the newest other dialogues of this agent and background. */
async function otherStorylines(
  deps: Pick<ContextDeps, 'store'>,
  o: { story: Story; beat: Beat; dialogueId: string; agentId: string },
): Promise<{ messages: Message[]; dialogueIds: string[] }> {
  const { store } = deps;
  const backgroundId = o.story.background._id;
  const others = (await store.stories.instancesOf(o.agentId, backgroundId))
    .filter((d) => d !== o.dialogueId)
    .slice(-OTHER_STORYLINES);
  const plots = await Promise.all(others.map((d) => store.stories.getPlot(d, backgroundId)));
  const found = plots.flatMap((p) => (p ? [{ dialogueId: p.dialogueId, ids: beatEvidence(p, o.beat.n) }] : []));
  const withEvidence = found.filter((f) => f.ids.length > 0);
  // One reply per storyline, newest storylines first, so one busy dialogue cannot fill the list.
  const picked = await Promise.all(
    withEvidence.reverse().map((f) => aiReplies(deps, f.ids.slice(0, EVIDENCE_READS), 1)),
  );
  const messages = picked.flat().slice(0, ELSEWHERE);
  return { messages, dialogueIds: [...new Set(messages.map((m) => m.dialogueId))] };
}
