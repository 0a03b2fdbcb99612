// Post-turn memory extraction (SPEC §4.4): after a reply, the model reads the turn (the human's
// messages and the reply, with their own timestamps) and lists what is worth remembering about
// the human; each new memory is compared with similar stored ones and becomes add / update /
// invalidate / noop (src/memory/reconcile.ts), then written with its vector. One run per turn:
// the run ends with an `llm_call` event (task extract_memories) that marks the turn as done.
import { isSaid } from '../domain/conversation.js';
import type { MemoryOrigin, Message, Turn } from '../domain/model.js';
import { homeOf, originOf } from '../domain/memoryOrigin.js';
import { renderMessage } from '../transcript/renderMessage.js';
import { runJsonTask } from '../llm/jsonTask.js';
import { routeData } from '../llm/route.js';
import type { Usage } from '../llm/types.js';
import type { Store } from '../store/store.js';
import { derivedId } from '../domain/ids.js';
import type { OwnerScope } from '../store/memories.js';
import { clampMemoryText, dedupeKeyOf } from './normalize.js';
import {
  EXTRACT_MEMORIES_INSTRUCTIONS,
  RECONCILE_MEMORIES_INSTRUCTIONS,
  extractionOutputSchema,
  parseExtraction,
  reconcileOutputSchema,
  renderExtractionInput,
  type TranscriptLine,
} from './extractionPrompt.js';
import { DEFAULT_RECONCILE_OPTIONS, type Candidate, type PlanOptions } from './reconcile.js';
import { planMemoryWrite, type AskReconcile } from './writeStep.js';
import type { MemoryTaskDeps } from './taskDeps.js';
import { applyDecisions, emptyWriteSummary, type WriteSummary } from './writeMemories.js';
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
  const turn: TurnRef = { _id: turnId, ...found };
  const [messages, config] = await Promise.all([store.history.ofTurn(turn), deps.config()]);
  const said = saidBetweenThem(messages, turn);
  if (!said.some((m) => m.senderRole === 'human')) {
    await record({ skipped: 'nothing_said' });
    return { ...empty, skipped: 'nothing_said' };
  }
  const maxChars = config.limits.memory_max_chars;
  const extracted = await extractCandidates(deps, turn, said, maxChars);
  const written =
    extracted.candidates.length > 0
      ? await writeCandidates(deps, { turn, said, candidates: extracted.candidates, now, maxChars })
      : { summary: emptyWriteSummary(), info: {}, usage: undefined };
  const usage = addUsage(extracted.usage, written.usage);
  const { writtenIds, supersededIds: _superseded, ...counts } = written.summary;
  const candidates = extracted.candidates.length;
  await record({
    candidates,
    dropped: extracted.dropped,
    ops: counts,
    memoryIds: writtenIds,
    ...written.info,
    ...(usage ? { usage } : {}),
    // Which provider extracted them (the provider chain), and which it passed over.
    ...extracted.route,
    durationMs: Date.now() - started,
  });
  log.info({ turnId: turnId, ...counts, candidates }, 'memories extracted');
  return { ...counts, candidates };
}

/** The turn with what the reply knew of it (TurnFacts). */
type TurnRef = TurnFacts & { _id: string };

/** What the turn's human and agent said to each other (nobody else's words become their memories). */
function saidBetweenThem(messages: Message[], turn: TurnRef): Message[] {
  return messages.filter(
    (m) =>
      isSaid(m) &&
      ((m.senderRole === 'human' && m.senderId === turn.subjectId) ||
        (m.senderRole === 'ai' && m.senderId === turn.ownerId)),
  );
}

/** The model's memories of the turn as candidates, dated by the person's last message at the latest. */
async function extractCandidates(
  deps: MemoryWriteDeps,
  turn: TurnRef,
  said: Message[],
  maxChars: number,
): Promise<{
  candidates: Candidate[];
  dropped: number;
  usage: Usage | undefined;
  route: ReturnType<typeof routeData>;
}> {
  const { agentName } = turn;
  const lines: TranscriptLine[] = said.map((m) => ({
    at: messageTime(m),
    role: m.senderRole === 'human' ? 'user' : 'assistant',
    name: m.senderRole === 'human' ? (turn.userName ?? m.contentMeta?.senderName) : agentName,
    text: renderMessage(m, { groupChat: turn.groupChat, agentName }),
  }));
  const lastHumanAt = messageTime(said.filter((m) => m.senderRole === 'human').at(-1)!);
  const extracted = await runJsonTask(deps.llm, {
    task: EXTRACT_TASK,
    model: deps.model,
    instructions: EXTRACT_MEMORIES_INSTRUCTIONS,
    input: renderExtractionInput({ now: lastHumanAt, ...(turn.userName ? { userName: turn.userName } : {}), lines }),
    schema: extractionOutputSchema,
    timeoutMs: deps.timeoutMs,
  });
  const parsed = parseExtraction(extracted.value.memories);
  if (parsed.dropped.length > 0)
    deps.log.warn({ turnId: turn._id, dropped: parsed.dropped }, 'invalid memories from the model were dropped');
  const candidates = parsed.candidates.map((c): Candidate => {
    const text = clampMemoryText(c.text, maxChars);
    return {
      kind: c.kind,
      text,
      importance: c.importance,
      occurredAt: c.occurredAt ?? lastHumanAt,
      dedupeKey: dedupeKeyOf(turn.ownerId, turn.subjectId, text, turn.origin),
    };
  });
  return { candidates, dropped: parsed.dropped.length, usage: extracted.usage, route: routeData(extracted) };
}

/** The shared write step (writeStep.ts), then the decisions written under the scope's guard. */
async function writeCandidates(
  deps: MemoryWriteDeps,
  o: { turn: TurnRef; said: Message[]; candidates: Candidate[]; now: Date; maxChars: number },
): Promise<{ summary: WriteSummary; info: Record<string, unknown>; usage: Usage | undefined }> {
  const { store, log } = deps;
  const { turn, candidates, maxChars } = o;
  const scope = { ownerId: turn.ownerId, subjectId: turn.subjectId };
  let usage: Usage | undefined;
  const ask: AskReconcile = async (input) => {
    const asked = await askModel(deps, turn._id, input);
    usage = asked.usage;
    return asked.ops;
  };
  const planned = await planMemoryWrite(deps, {
    scope,
    candidates,
    home: homeOf(turn.origin),
    options: { ...DEFAULT_RECONCILE_OPTIONS, ...deps.reconcile },
    maxChars,
    ask,
    writer: EXTRACT_TASK,
  });
  if (planned.problems.length > 0)
    log.warn({ turnId: turn._id, problems: planned.problems }, 'memory reconcile operations ignored');
  const sources = {
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    turnIds: [turn._id],
    messageIds: o.said.map((m) => m._id),
  };
  // One writer per scope at a time: the writes read, check and write entries by _id.
  const summary = await store.memories.guarded(scope, () =>
    applyDecisions(
      store,
      { scope, sources, origin: turn.origin, now: o.now, maxChars },
      candidates,
      planned.decisions,
      planned.embeddings,
      log,
    ),
  );
  const changed = [...summary.writtenIds, ...summary.supersededIds];
  if (changed.length > 0) await deps.cache.noteWritten(scope, changed);
  const info = {
    asked: planned.asked,
    fallback: planned.modelUnavailable,
    similarUnavailable: planned.similarUnavailable,
    problems: planned.problems.length,
  };
  return { summary, info, usage };
}

/** `reconcile_memories` with the memory model; a failure adds the candidates as they are. */
async function askModel(
  deps: MemoryWriteDeps,
  turnId: string,
  input: string,
): Promise<{ ops: unknown[] | 'unavailable'; usage?: Usage }> {
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
