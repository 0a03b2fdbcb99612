// Post-turn memory extraction (SPEC §4.4): after a reply, the model reads the turn (the human's
// messages and the reply, with their own timestamps) and lists what is worth remembering about
// the human; each new memory is compared with similar stored ones and becomes add / update /
// invalidate / noop (src/memory/reconcile.ts), then written with its vector. One run per turn:
// the run ends with an `llm_call` event (task extract_memories) that marks the turn as done.
import { isSaid } from '../domain/conversation.js';
import type { MemoryEmbedding, MemoryEntry, MemoryOrigin, Message, Turn } from '../domain/model.js';
import { homeOf, originOf } from '../domain/memoryOrigin.js';
import { renderMessage } from '../context/renderMessage.js';
import { runJsonTask } from '../llm/jsonTask.js';
import type { Usage } from '../llm/types.js';
import type { Store } from '../store/store.js';
import { derivedId } from '../domain/ids.js';
import type { OwnerScope } from '../store/memories.js';
import { embedTexts, findSimilar } from './similar.js';
import { clampMemoryText, dedupeKeyOf } from './normalize.js';
import {
  EXTRACT_MEMORIES_INSTRUCTIONS,
  RECONCILE_MEMORIES_INSTRUCTIONS,
  extractionOutputSchema,
  parseExtraction,
  reconcileOutputSchema,
  renderExtractionInput,
  renderReconcileInput,
  type TranscriptLine,
} from './extractionPrompt.js';
import {
  askedCandidates,
  decide,
  planCandidates,
  DEFAULT_RECONCILE_OPTIONS,
  type Candidate,
  type CandidatePlan,
  type PlanOptions,
  type SimilarHit,
} from './reconcile.js';
import type { MemoryTaskDeps } from './taskDeps.js';
import { applyDecisions, emptyWriteSummary, textsToEmbed, type WriteSummary } from './writeMemories.js';
import { turnAgentId, turnHumanId } from '../domain/turnRules.js';

export interface MemoryWriteDeps extends MemoryTaskDeps {
  now?: () => Date;
  /** Similarity threshold and number of stored entries shown per candidate. */
  reconcile?: Partial<PlanOptions>;
}

export type ExtractionSummary = Omit<WriteSummary, 'writtenIds' | 'supersededIds'> & {
  candidates: number;
  skipped?: 'no_turn' | 'already_extracted' | 'no_participants' | 'nothing_said';
};

const EXTRACT_TASK = 'extract_memories';

/** The agent who remembers and the human it is about, whichever of them opened the turn. */
export function scopeOfTurn(turn: Turn): OwnerScope | undefined {
  const agent = turnAgentId(turn);
  const human = turnHumanId(turn);
  return agent && human ? { ownerId: agent, subjectId: human } : undefined;
}

/**
 * What the reply already knew about its turn, carried in the extraction job so the extraction
 * reads none of it again (four reads per turn). Jobs without it read the record.
 */
export interface TurnFacts {
  dialogueId: string;
  sessionId: string;
  ownerId: string;
  subjectId: string;
  groupChat: boolean;
  agentName: string;
  userName?: string;
  /** Where the turn was said (its memories' origin); absent in jobs queued before origins: read again. */
  origin?: MemoryOrigin;
}

export function turnFactsOf(
  turn: Turn,
  o: { groupChat: boolean; agentName: string; userName?: string | undefined; origin: MemoryOrigin },
): TurnFacts | undefined {
  const scope = scopeOfTurn(turn);
  if (!scope?.subjectId) return undefined;
  return {
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    ownerId: scope.ownerId,
    subjectId: scope.subjectId,
    groupChat: o.groupChat,
    agentName: o.agentName,
    ...(o.userName ? { userName: o.userName } : {}),
    origin: o.origin,
  };
}

type Found = TurnFacts | 'no_turn' | { noParticipants: Pick<Turn, 'dialogueId' | 'sessionId'> };

/** The turn's facts from the record (a job queued without them). */
async function readTurnFacts(store: Store, turnId: string): Promise<Found> {
  const turn = await store.turns.get(turnId);
  if (!turn) return 'no_turn';
  const scope = scopeOfTurn(turn);
  if (!scope?.subjectId) return { noParticipants: turn };
  const [dialogue, agent, human] = await Promise.all([
    store.dialogues.get(turn.dialogueId),
    store.participants.getAgent(scope.ownerId),
    store.participants.getHuman(scope.subjectId),
  ]);
  if (!dialogue) return { noParticipants: turn };
  const facts = turnFactsOf(turn, {
    origin: originOf(dialogue),
    groupChat: dialogue.type === 'group',
    agentName: agent?.name ?? 'assistant',
    userName: human?.displayName,
  });
  return facts ?? { noParticipants: turn };
}

const messageTime = (m: Message): Date => m.sentAt ?? m.createdAt;

/** The extraction's own `llm_call` event marks the turn as done; its id derives from the turn. */
export const extractionEventIdOf = (turnId: string) => derivedId('evt', EXTRACT_TASK, turnId);

async function alreadyExtracted(store: Store, turnId: string): Promise<boolean> {
  return (await store.events.get(extractionEventIdOf(turnId))) !== null;
}

function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

export async function extractTurnMemories(
  deps: MemoryWriteDeps,
  o: { turnId: string; facts?: TurnFacts },
): Promise<ExtractionSummary> {
  const empty = { added: 0, updated: 0, superseded: 0, reactivated: 0, noops: 0, candidates: 0 };
  const { store, log } = deps;
  const turnId = o.turnId;
  const [found, done] = await Promise.all([
    o.facts?.origin ? o.facts : readTurnFacts(store, turnId),
    alreadyExtracted(store, turnId),
  ]);
  if (found === 'no_turn') return { ...empty, skipped: 'no_turn' };
  if (done) return { ...empty, skipped: 'already_extracted' };
  const now = deps.now?.() ?? new Date();
  const started = Date.now();
  const where = 'noParticipants' in found ? found.noParticipants : found;
  const record = (data: Record<string, unknown>) =>
    store.events.record({
      id: extractionEventIdOf(turnId),
      kind: 'llm_call',
      dialogueId: where.dialogueId,
      sessionId: where.sessionId,
      turnId,
      at: now,
      data: { task: EXTRACT_TASK, model: deps.model, ...data },
    });

  if ('noParticipants' in found) {
    await record({ skipped: 'no_participants' });
    return { ...empty, skipped: 'no_participants' };
  }
  const turnRef = { _id: turnId, ...found };
  const scope = { ownerId: turnRef.ownerId, subjectId: turnRef.subjectId };
  const [messages, config] = await Promise.all([store.history.ofTurn(turnRef), deps.config()]);
  const { agentName } = turnRef;
  const said = messages.filter(
    (m) =>
      isSaid(m) &&
      ((m.senderRole === 'human' && m.senderId === scope.subjectId) ||
        (m.senderRole === 'ai' && m.senderId === scope.ownerId)),
  );
  const humanMessages = said.filter((m) => m.senderRole === 'human');
  if (humanMessages.length === 0) {
    await record({ skipped: 'nothing_said' });
    return { ...empty, skipped: 'nothing_said' };
  }
  const lines: TranscriptLine[] = said.map((m) => ({
    at: messageTime(m),
    role: m.senderRole === 'human' ? 'user' : 'assistant',
    name: m.senderRole === 'human' ? (turnRef.userName ?? m.contentMeta?.senderName) : agentName,
    text: renderMessage(m, { groupChat: turnRef.groupChat, agentName }),
  }));
  const lastHumanAt = messageTime(humanMessages[humanMessages.length - 1]!);

  const extracted = await runJsonTask(deps.llm, {
    task: EXTRACT_TASK,
    model: deps.model,
    instructions: EXTRACT_MEMORIES_INSTRUCTIONS,
    input: renderExtractionInput({
      now: lastHumanAt,
      ...(turnRef.userName ? { userName: turnRef.userName } : {}),
      lines,
    }),
    schema: extractionOutputSchema,
    timeoutMs: deps.timeoutMs,
  });
  const parsed = parseExtraction(extracted.value.memories);
  if (parsed.dropped.length > 0)
    log.warn({ turnId: turnId, dropped: parsed.dropped }, 'invalid memories from the model were dropped');

  const maxChars = config.limits.memory_max_chars;
  const candidates: Candidate[] = parsed.candidates.map((c) => {
    const text = clampMemoryText(c.text, maxChars);
    return {
      kind: c.kind,
      text,
      importance: c.importance,
      occurredAt: c.occurredAt ?? lastHumanAt,
      dedupeKey: dedupeKeyOf(scope.ownerId, scope.subjectId, text, turnRef.origin),
    };
  });

  let usage = extracted.usage;
  let summary: WriteSummary = emptyWriteSummary();
  let reconcileInfo: Record<string, unknown> = {};
  if (candidates.length > 0) {
    const options = { ...DEFAULT_RECONCILE_OPTIONS, ...deps.reconcile };
    const [existing, similar] = await Promise.all([
      store.memories.findByDedupeKeys(candidates.map((c) => c.dedupeKey)),
      similarEntries(deps, scope, candidates, options.topK, homeOf(turnRef.origin)),
    ]);
    const byKey = new Map(existing.filter((e) => e.ownerId === scope.ownerId).map((e) => [e.dedupeKey, e]));
    const plans = planCandidates(candidates, byKey, similar.hits, options);
    const asked = await askModel(deps, turnId, candidates, plans);
    usage = addUsage(usage, asked.usage);
    const { decisions, problems } = decide(candidates, plans, asked.ops);
    if (problems.length > 0) log.warn({ turnId: turnId, problems }, 'memory reconcile operations ignored');
    const embeddings = await embedForWrite(deps, textsToEmbed(candidates, decisions, maxChars));
    const sources = {
      dialogueId: turnRef.dialogueId,
      sessionId: turnRef.sessionId,
      turnIds: [turnId],
      messageIds: said.map((m) => m._id),
    };
    // One writer per scope at a time: the writes read, check and write entries by _id.
    summary = await store.memories.guarded(scope, () =>
      applyDecisions(
        store,
        { scope, sources, origin: turnRef.origin, now, maxChars },
        candidates,
        decisions,
        embeddings,
        log,
      ),
    );
    const changed = [...summary.writtenIds, ...summary.supersededIds];
    if (changed.length > 0) await deps.cache.noteWritten(scope, changed);
    reconcileInfo = {
      asked: askedCandidates(plans).length,
      fallback: asked.ops === 'unavailable',
      similarUnavailable: similar.failed,
      problems: problems.length,
    };
  }

  const { writtenIds, supersededIds: _superseded, ...counts } = summary;
  await record({
    candidates: candidates.length,
    dropped: parsed.dropped.length,
    ops: counts,
    memoryIds: writtenIds,
    ...reconcileInfo,
    ...(usage ? { usage } : {}),
    durationMs: Date.now() - started,
  });
  log.info({ turnId: turnId, ...counts, candidates: candidates.length }, 'memories extracted');
  return { ...counts, candidates: candidates.length };
}

/** Active entries nearest to each candidate; none when the embeddings are unavailable (all get added). */
async function similarEntries(
  deps: MemoryWriteDeps,
  scope: OwnerScope,
  candidates: Candidate[],
  k: number,
  home: string,
): Promise<{ hits: SimilarHit[][]; failed: boolean }> {
  try {
    // Compared only with memories of the same place: an update never carries words across chats.
    const found = await findSimilar(
      { embedder: deps.embedder, cache: deps.cache },
      scope,
      candidates.map((c) => c.text),
      k,
      home,
    );
    const ids = [...new Set(found.flatMap((list) => list.map((h) => h.entry.id)))];
    const full = new Map<string, MemoryEntry>((await deps.store.memories.getMany(ids)).map((e) => [e._id, e]));
    return {
      hits: found.map((list) =>
        list.flatMap((h) => (full.has(h.entry.id) ? [{ entry: full.get(h.entry.id)!, score: h.score }] : [])),
      ),
      failed: false,
    };
  } catch (err) {
    deps.log.warn({ err }, 'similar memories unavailable; new memories are added without comparison');
    return { hits: candidates.map(() => []), failed: true };
  }
}

async function askModel(
  deps: MemoryWriteDeps,
  turnId: string,
  candidates: Candidate[],
  plans: CandidatePlan[],
): Promise<{ ops: unknown[] | 'unavailable'; usage?: Usage }> {
  const asked = askedCandidates(plans);
  if (asked.length === 0) return { ops: [] };
  const input = renderReconcileInput(
    asked.map((i) => {
      const p = plans[i]!;
      const similar = p.action === 'ask' || p.action === 'reactivate' ? p.similar : [];
      return {
        candidate: candidates[i]!,
        similar: similar.map((h) => ({
          id: h.entry._id,
          kind: h.entry.kind,
          text: h.entry.text,
          occurredAt: h.entry.occurredAt,
          score: h.score,
        })),
      };
    }),
  );
  try {
    const r = await runJsonTask(deps.llm, {
      task: 'reconcile_memories',
      model: deps.model,
      instructions: RECONCILE_MEMORIES_INSTRUCTIONS,
      input,
      schema: reconcileOutputSchema,
      timeoutMs: deps.timeoutMs,
    });
    return { ops: r.value.operations, ...(r.usage ? { usage: r.usage } : {}) };
  } catch (err) {
    deps.log.warn({ turnId, err }, 'reconcile_memories failed; new memories are added as they are');
    return { ops: 'unavailable' };
  }
}

async function embedForWrite(deps: MemoryWriteDeps, texts: string[]): Promise<Map<string, MemoryEmbedding>> {
  const unique = [...new Set(texts)];
  if (unique.length === 0) return new Map();
  try {
    const vectors = await embedTexts(deps.embedder, unique);
    return new Map(unique.map((t, i) => [t, vectors[i]!]));
  } catch (err) {
    // Stored without a vector: the index embeds entries that lack one when it loads them.
    deps.log.warn({ err }, 'embedding new memories failed; stored without vectors');
    return new Map();
  }
}
