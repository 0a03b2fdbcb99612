// The five kinds of introspection turn (seed 000's example run), each filling in its turn:
// what it read (input context), what it sent to its tool and got back, the memories it wrote,
// and the mood and values it moved. Reads are bounded; whatever a bound leaves out is counted
// on the turn, never dropped silently.
import type { MemoryEntry, Message, Turn } from '../domain/model.js';
import { isSaid } from '../domain/conversation.js';
import { turnHumanId } from '../domain/turnRules.js';
import { isPrivateChat, recallableIn } from '../domain/memoryOrigin.js';
import {
  adjustValues,
  normalizeMood,
  stepsAfterSearch,
  type IntrospectionTurn,
  type PlannedStep,
} from '../domain/reflection.js';
import { transcriptOf } from '../summary/summaryPrompts.js';
import type { ConversationBlock, TranscriptLine } from '../memory/extractionPrompt.js';
import {
  ADJUST_VALUES_INSTRUCTIONS,
  EVALUATE_PERSONA_INSTRUCTIONS,
  SUMMARIZE_HUMAN_INSTRUCTIONS,
  WRITE_REPORT_INSTRUCTIONS,
  adjustValuesSchema,
  evaluatePersonaSchema,
  parseProposals,
  renderAdjustValuesInput,
  renderEvaluatePersonaInput,
  renderReportInput,
  renderSummarizeHumanInput,
  summarizeHumanSchema,
  writeReportSchema,
  type Proposal,
} from './reflectionPrompts.js';
import type { CallRequest } from './spend.js';
import { writeProposals } from './memoryWrites.js';
import type { RunContext } from './runContext.js';

/** Bounds of what a run reads. */
export const RECENT_MEMORIES_MAX = 200;
export const RECENT_TURNS_MAX = 60;
export const MEMORIES_PER_HUMAN_MAX = 30;
export const TRANSCRIPT_CHARS_PER_HUMAN = 12_000;
export const TRANSCRIPT_CHARS_PERSONA = 16_000;

/** What the search step found, shared by the later steps. */
export interface Recent {
  memories: MemoryEntry[];
  /** Newest first. */
  turns: Turn[];
  said: Map<string, Message[]>;
  names: Map<string, string>;
  dialogueLabels: Map<string, string>;
  /** The turns' dialogues that are private chats (SPEC §13: a person's summary reads only these). */
  privateDialogues: Set<string>;
  /** The steps after the search. */
  plan: PlannedStep[];
}

const at = (turn: IntrospectionTurn) => ({ seq: turn.seq, step: turn.step });

/**
 * A step's model call, recorded on its turn as it goes: what was sent, the model, the tokens and
 * the answer. One place, so every step's trace carries the same fields whatever the step asks.
 */
async function callTool<T>(ctx: RunContext, turn: IntrospectionTurn, req: CallRequest<T>): Promise<T> {
  turn.toolInput = req.input;
  turn.model = ctx.deps.model;
  const r = await ctx.spender.call(req, at(turn));
  turn.tokens += r.tokens;
  turn.toolOutput = r.value;
  return r.value;
}

/** The answer's valid memory proposals; each dropped one is noted on the turn (never dropped silently). */
function validProposals(turn: IntrospectionTurn, raw: unknown[], about: 'human' | 'self'): Proposal[] {
  const { proposals, dropped } = parseProposals(raw, about);
  turn.notes.push(...dropped);
  return proposals;
}

// ---------------------------------------------------------------- search_memories

export async function searchMemories(ctx: RunContext, turn: IntrospectionTurn): Promise<Recent> {
  const { store } = ctx.deps;
  const agentId = ctx.agent._id;
  turn.toolInput = {
    since: ctx.since.toISOString(),
    lookbackHours: ctx.state.settings.lookbackHours,
    limits: { memories: RECENT_MEMORIES_MAX, turns: RECENT_TURNS_MAX },
  };
  const [memoriesRead, turnsRead] = await Promise.all([
    store.reflections.recentMemoriesOf(agentId, ctx.since, RECENT_MEMORIES_MAX + 1),
    store.turns.recentAnsweredOf(agentId, RECENT_TURNS_MAX + 1),
  ]);
  const recentTurns = turnsRead.filter((t) => t.startedAt.getTime() >= ctx.since.getTime());
  const memories = memoriesRead.slice(0, RECENT_MEMORIES_MAX);
  const turns = recentTurns.slice(0, RECENT_TURNS_MAX);
  const history = await Promise.all(turns.map((t) => store.history.ofTurn(t)));
  const said = new Map(turns.map((t, i) => [t._id, history[i]!.filter(isSaid)]));

  const humans = [
    ...turns.flatMap((t) => turnHumanId(t) ?? []),
    ...memories.flatMap((m) => (m.subjectId ? [m.subjectId] : [])),
  ];
  const { steps, omitted } = stepsAfterSearch(humans);
  const kept = steps.flatMap((s) => s.subjectId ?? []);
  const [names, { dialogueLabels, privateDialogues }] = await Promise.all([
    humanNames(ctx, kept),
    dialoguesOf(ctx, turns),
  ]);

  const messageIds = [...said.values()].flat().map((m) => m._id);
  turn.inputContext = {
    memoryIds: memories.map((m) => m._id),
    messageIds,
    turnIds: turns.map((t) => t._id),
    humanIds: [...new Set(humans)],
    omitted: {
      ...(memoriesRead.length > RECENT_MEMORIES_MAX ? { memories: `more than ${RECENT_MEMORIES_MAX}` } : {}),
      ...(recentTurns.length > RECENT_TURNS_MAX ? { turns: `more than ${RECENT_TURNS_MAX}` } : {}),
      ...(omitted.length > 0 ? { humans: omitted } : {}),
    },
  };
  turn.toolOutput = {
    memories: memories.length,
    memoriesByHuman: countBy(memories.map((m) => m.subjectId ?? '(self)')),
    turns: turns.length,
    messages: messageIds.length,
    humans: kept.map((id) => ({ id, name: names.get(id) ?? id })),
    humansForLater: omitted,
  };
  if (omitted.length > 0) turn.notes.push(`${omitted.length} people left for a later reflection`);
  return { memories, turns, said, names, dialogueLabels, privateDialogues, plan: steps };
}

function countBy(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

async function humanNames(ctx: RunContext, ids: string[]): Promise<Map<string, string>> {
  const found = await Promise.all(ids.map((id) => ctx.deps.store.participants.getHuman(id)));
  return new Map(ids.map((id, i) => [id, found[i]?.displayName ?? id]));
}

async function dialoguesOf(
  ctx: RunContext,
  turns: Turn[],
): Promise<{ dialogueLabels: Map<string, string>; privateDialogues: Set<string> }> {
  const ids = [...new Set(turns.map((t) => t.dialogueId))];
  const found = await Promise.all(ids.map((id) => ctx.deps.store.dialogues.get(id)));
  return {
    dialogueLabels: new Map(ids.map((id, i) => [id, found[i]?.title ?? `${found[i]?.type ?? 'dialogue'} ${id}`])),
    privateDialogues: new Set(found.flatMap((d) => (d && isPrivateChat(d) ? [d._id] : []))),
  };
}

// ---------------------------------------------------------------- conversations shown to a step

interface Shown {
  blocks: ConversationBlock[];
  turnIds: string[];
  messageIds: string[];
  dialogueIds: string[];
  omittedMessages: number;
  lastAt?: Date;
}

/** What a step read of the conversations shown to it, with the messages the bound left out counted. */
function readContext(shown: Shown, memoryIds: string[], humanIds: string[]): IntrospectionTurn['inputContext'] {
  return {
    memoryIds,
    messageIds: shown.messageIds,
    turnIds: shown.turnIds,
    humanIds,
    ...(shown.omittedMessages > 0 ? { omitted: { messages: shown.omittedMessages } } : {}),
  };
}

/** The newest of the turns' messages that fit in `maxChars`, grouped per dialogue, oldest first. */
function conversations(ctx: RunContext, recent: Recent, turns: Turn[], maxChars: number): Shown {
  const picked: Array<{ turn: Turn; message: Message; line: TranscriptLine }> = [];
  let used = 0;
  let omitted = 0;
  for (const t of turns) {
    const messages = recent.said.get(t._id) ?? [];
    const lines = transcriptOf(messages, { groupChat: false, agentName: ctx.agent.name, selfId: ctx.agent._id });
    for (let i = messages.length - 1; i >= 0; i--) {
      const size = lines[i]!.text.length + 40;
      if (used + size > maxChars) omitted++;
      else {
        used += size;
        picked.push({ turn: t, message: messages[i]!, line: lines[i]! });
      }
    }
  }
  picked.reverse();
  const byDialogue = new Map<string, TranscriptLine[]>();
  for (const p of picked) byDialogue.set(p.turn.dialogueId, [...(byDialogue.get(p.turn.dialogueId) ?? []), p.line]);
  return {
    blocks: [...byDialogue].map(([id, lines]) => ({ label: recent.dialogueLabels.get(id) ?? id, lines })),
    turnIds: [...new Set(picked.map((p) => p.turn._id))],
    messageIds: picked.map((p) => p.message._id),
    dialogueIds: [...byDialogue.keys()],
    omittedMessages: omitted,
    ...(picked.length > 0 ? { lastAt: picked[picked.length - 1]!.message.createdAt } : {}),
  };
}

// ---------------------------------------------------------------- summarize_human

export async function summarizeHuman(
  ctx: RunContext,
  turn: IntrospectionTurn,
  recent: Recent,
  humanId: string,
): Promise<{ name: string; summary: string }> {
  const { store } = ctx.deps;
  const name = recent.names.get(humanId) ?? humanId;
  turn.purpose = summarizePurpose(name);
  const important = await store.memories.mostImportant({ ownerId: ctx.agent._id, subjectId: humanId }, 20);
  // What the person said in their private chats only: the summary is recalled there (SPEC §13).
  const memories = uniqueById([...recent.memories.filter((m) => m.subjectId === humanId), ...important])
    .filter((m) => recallableIn(m, ANY_PRIVATE_CHAT))
    .slice(0, MEMORIES_PER_HUMAN_MAX);
  const shown = conversations(
    ctx,
    recent,
    recent.turns.filter((t) => turnHumanId(t) === humanId && recent.privateDialogues.has(t.dialogueId)),
    TRANSCRIPT_CHARS_PER_HUMAN,
  );
  turn.inputContext = readContext(
    shown,
    memories.map((m) => m._id),
    [humanId],
  );
  const input = renderSummarizeHumanInput({
    agentName: ctx.agent.name,
    humanName: name,
    memories,
    conversations: shown.blocks,
  });
  const answer = await callTool(ctx, turn, {
    task: 'reflect_summarize_human',
    instructions: SUMMARIZE_HUMAN_INSTRUCTIONS,
    input,
    schema: summarizeHumanSchema,
  });
  const from = shown.dialogueIds[0];
  await writeProposals(ctx, turn, {
    scope: { ownerId: ctx.agent._id, subjectId: humanId },
    proposals: validProposals(turn, answer.memories, 'human'),
    shown: { memoryIds: turn.inputContext.memoryIds, ...shown },
    occurredAt: shown.lastAt ?? ctx.now(),
    ...(from ? { origin: { dialogueId: from, scope: 'private' } } : {}),
  });
  return { name, summary: answer.summary };
}

/** Seed 000's "总结与X的交流情感": the purpose names the person. */
export const summarizePurpose = (name: string): string => `Summarise how things stand with ${name}`;

/** Any private chat with the person: what their private summary may be made of. */
const ANY_PRIVATE_CHAT = { dialogueId: '', private: true } as const;

const uniqueById = (list: MemoryEntry[]): MemoryEntry[] => [...new Map(list.map((m) => [m._id, m])).values()];

// ---------------------------------------------------------------- evaluate_persona

export async function evaluatePersona(
  ctx: RunContext,
  turn: IntrospectionTurn,
  recent: Recent,
  summaries: ReadonlyArray<{ name: string; summary: string }>,
): Promise<string> {
  const shown = conversations(ctx, recent, recent.turns, TRANSCRIPT_CHARS_PERSONA);
  turn.inputContext = readContext(
    shown,
    [...ctx.generated],
    [...new Set(recent.turns.flatMap((t) => turnHumanId(t) ?? []))],
  );
  const input = renderEvaluatePersonaInput({
    agentName: ctx.agent.name,
    basePersona: ctx.agent.basePersona,
    evolvedPersona: ctx.agent.evolvedPersona,
    values: ctx.state.values,
    mood: ctx.state.mood,
    summaries,
    conversations: shown.blocks,
  });
  const answer = await callTool(ctx, turn, {
    task: 'reflect_evaluate_persona',
    instructions: EVALUATE_PERSONA_INSTRUCTIONS,
    input,
    schema: evaluatePersonaSchema,
  });
  await writeProposals(ctx, turn, {
    scope: { ownerId: ctx.agent._id },
    proposals: validProposals(turn, answer.memories, 'self'),
    shown: { memoryIds: turn.inputContext.memoryIds, ...shown },
    occurredAt: ctx.now(),
  });
  return answer.evaluation;
}

// ---------------------------------------------------------------- adjust_values

export async function adjustValuesAndMood(
  ctx: RunContext,
  turn: IntrospectionTurn,
  evaluation: string,
): Promise<string> {
  const before = { values: { ...ctx.state.values }, mood: { ...ctx.state.mood } };
  turn.inputContext = { memoryIds: [], messageIds: [], turnIds: [], humanIds: [] };
  const answer = await callTool(ctx, turn, {
    task: 'reflect_adjust_values',
    instructions: ADJUST_VALUES_INSTRUCTIONS,
    input: renderAdjustValuesInput({ ...before, evaluation }),
    schema: adjustValuesSchema,
  });
  const { values, changes, refused } = adjustValues(before.values, answer.values);
  const mood = normalizeMood(answer.mood);
  if (refused.length > 0) turn.notes.push(`new values not taken (at most 12): ${refused.join(', ')}`);
  for (const c of changes.filter((c) => c.limited))
    turn.notes.push(`${c.name}: proposed ${c.proposed}, moved to ${c.after} (at most 0.2 per reflection)`);
  turn.valueImpact = { changes };
  turn.moodShift = { before: before.mood, after: mood };
  const now = ctx.now();
  const after = { values, mood };
  // The ledger first: a rollback can undo the change only once the run records it.
  await ctx.deps.store.reflections.setInnerChange(
    ctx.run,
    { before, after, ...(ctx.state.innerUpdatedBy ? { beforeBy: ctx.state.innerUpdatedBy } : {}) },
    now,
  );
  await ctx.deps.store.reflections.setInner(ctx.agent._id, after, ctx.run._id, now);
  ctx.state = { ...ctx.state, ...after, innerUpdatedBy: ctx.run._id };
  const moved = changes.map((c) => `${c.name} ${c.before ?? 'new'} → ${c.after}`).join(', ') || 'no value moved';
  return `${moved}; mood ${before.mood.label} → ${mood.label}`;
}

// ---------------------------------------------------------------- write_report

export async function writeReport(
  ctx: RunContext,
  turn: IntrospectionTurn,
  done: ReadonlyArray<{ purpose: string; outcome: string }>,
): Promise<string> {
  turn.inputContext = { memoryIds: [...ctx.generated], messageIds: [], turnIds: [], humanIds: [] };
  const answer = await callTool(ctx, turn, {
    task: 'reflect_write_report',
    instructions: WRITE_REPORT_INSTRUCTIONS,
    input: renderReportInput({ agentName: ctx.agent.name, steps: done }),
    schema: writeReportSchema,
  });
  await writeProposals(ctx, turn, {
    scope: { ownerId: ctx.agent._id },
    proposals: validProposals(turn, answer.memories, 'self'),
    shown: { memoryIds: turn.inputContext.memoryIds, messageIds: [], turnIds: [], dialogueIds: [] },
    occurredAt: ctx.now(),
  });
  return answer.report;
}
