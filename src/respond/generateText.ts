// The model's text for a reply (SPEC §4.2): the tool loop under the agent's model settings,
// streamed through the stream stages to people, ended by the generation timeout or /stop
// (BR-005); a generation the model did not finish becomes its outcome here, not an error.
import type { Dialogue, EventKind, Turn } from '../domain/model.js';
import { effectiveModelSettings, type EffectiveModelSettings } from '../domain/agentModel.js';
import type { GatheredContext } from '../context/gatherContext.js';
import { LlmFailure } from '../llm/types.js';
import type { ReplyStreamer } from '../delivery/replyStreamer.js';
import { text as notice } from '../i18n/texts.js';
import type { TurnTrace } from '../trace/turnTrace.js';
import { ROOM_TIMEOUT_TEXT } from '../rooms/roomFlow.js';
import { runToolLoop } from './toolLoop.js';
import { composeStages } from '../delivery/streamStage.js';
import type { RoomAsk } from './roomAsk.js';
import type { RespondDeps } from './respondDeps.js';
import type { Outcome } from './replyOutcome.js';
import { withRequiredStages } from './requiredStages.js';
import { spendingFor } from '../budget/payer.js';
import { turnHumanId } from '../domain/turnRules.js';

/** What the model's text is generated from and streamed into. */
export interface TextRequest {
  turn: Turn;
  dialogue: Dialogue;
  gathered: GatheredContext;
  streamer: ReplyStreamer;
  trace: TurnTrace;
  contextEventId: string;
  /** Called when the model's response began, and at the latest when generation ends. */
  modelOpened: () => void;
  now: Date;
  ask: RoomAsk;
}

/**
 * The model's text through the tool loop, streamed to people through the stream stages (what
 * the model says is stored as said; what people see passes the stages first), within the
 * generation timeout and stoppable by /stop.
 */
export async function generateText(deps: RespondDeps, o: TextRequest): Promise<Outcome> {
  const reply = {
    sources: o.gathered.knowledge?.sources ?? [],
    config: o.gathered.config.config,
    record: (kind: EventKind, data: Record<string, unknown>) => o.trace.record(kind, data),
  };
  const stage = composeStages(withRequiredStages(deps.streamStages).map((make) => make(reply)));
  let shownSoFar = '';
  const show = (text: string) => {
    if (!text) return;
    shownSoFar += text;
    // An agent that may still skip shows nothing until it is clearly answering (roomAsk.ts).
    o.ask.stream(text, (t) => o.streamer.append(t));
  };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort('timeout'), deps.llmTimeoutMs);
  const endActive = deps.active.begin(o.dialogue._id, o.turn._id, abort);
  const settings = replyModelOf(deps, o.gathered);
  try {
    // Every model call of this reply (each tool round) is spent for, and checked against, the
    // budgets of the person who asked, the chat and the agent (SPEC §14).
    const payer = { dialogueId: o.dialogue._id, agentId: o.turn.responderId, ...humanOf(o.turn) };
    const result = await spendingFor(payer, () =>
      runToolLoop({
        llm: deps.llm,
        model: settings.name,
        ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
        messages: o.gathered.built.messages,
        registry: o.ask.tools,
        toolContext: {
          store: deps.store,
          dialogueId: o.dialogue._id,
          now: o.now,
          timezone: deps.timezone,
          ...(o.ask.ask ? { ask: o.ask.ask } : {}),
        },
        maxRounds: deps.maxToolRounds,
        ...(settings.maxOutputTokens !== undefined ? { maxOutputTokens: settings.maxOutputTokens } : {}),
        signal: abort.signal,
        onDelta: (d) => show(stage.push(d)),
        onOpen: o.modelOpened,
        trace: o.trace,
        contextEventId: o.contextEventId,
        done: () => o.ask.skipped(),
      }),
    );
    show(stage.end());
    // A gate (moderation) lets the reply out, or a notice for it, only now that it is complete.
    const released = stage.release ? await stage.release() : undefined;
    show(released?.text ?? '');
    const spent = result.usage ? { usage: result.usage } : {};
    if (o.ask.skipped()) return { state: 'complete', stored: result.text, shown: '', skipped: true, ...spent };
    // Withheld: stored as the error with nothing said, so the text reaches no prompt or memory.
    if (released?.withheld)
      return { state: 'error', stored: '', shown: released.text, error: released.withheld, ...spent };
    if (shownSoFar.trim().length > 0) return { state: 'complete', stored: result.text, shown: shownSoFar, ...spent };
    const empty = notice('EMPTY_REPLY', deps.locale);
    return { state: 'empty', stored: result.text.trim() ? result.text : empty, shown: empty, ...spent };
  } catch (err) {
    if (!(err instanceof LlmFailure)) throw err;
    return failedOutcome(deps, err, o.streamer.currentText.trim() ? o.streamer.currentText : '', o.turn);
  } finally {
    o.modelOpened();
    clearTimeout(timer);
    endActive();
  }
}

/** The agent's model settings over the deployment's: its model, temperature and longest answer. */
export const replyModelOf = (deps: RespondDeps, g: Pick<GatheredContext, 'agent' | 'config'>): EffectiveModelSettings =>
  effectiveModelSettings({ name: deps.model, maxOutputTokens: g.config.config.limits.max_reply_tokens }, g.agent);

/** What people are told of a failed reply, by its code; anything else is the service's error. */
const FAILURE_NOTICES = {
  GENERATION_TIMEOUT: 'GENERATION_TIMEOUT',
  MODEL_NOT_CONFIGURED: 'MODEL_NOT_CONFIGURED',
  BUDGET_EXCEEDED: 'BUDGET_EXCEEDED',
} as const;

/** The person a turn was asked by, when a person asked it (a room's AI⇄AI asks have none). */
const humanOf = (turn: Turn): { humanId?: string } => {
  const humanId = turnHumanId(turn);
  return humanId ? { humanId } : {};
};

/** A generation the model did not finish: stopped by the user (BR-005), timed out or failed. */
function failedOutcome(deps: RespondDeps, err: LlmFailure, partial: string, turn: Turn): Outcome {
  if (err.aborted === 'deadline') {
    // Seed 002: no answer in time is an invisible skip; what people already saw stays as it was.
    if (partial) return { state: 'timeout', stored: partial, shown: partial, deadline: true };
    return { state: 'timeout', stored: ROOM_TIMEOUT_TEXT, shown: '', skipped: true, deadline: true };
  }
  if (err.aborted === 'interrupted') {
    // BR-005: the user stopped it; what was said so far is the reply.
    const mark = notice('INTERRUPTED_MARK', deps.locale);
    return { state: 'interrupted', stored: partial, shown: partial ? `${partial} ${mark}` : mark };
  }
  const timeout = err.error.code === 'GENERATION_TIMEOUT';
  const told = FAILURE_NOTICES[err.error.code as keyof typeof FAILURE_NOTICES] ?? 'LLM_SERVICE_ERROR';
  const userText = notice(told, deps.locale);
  deps.log.warn({ turnId: turn._id, code: err.error.code, err: err.message }, 'reply failed');
  return {
    state: timeout ? 'timeout' : 'error',
    // The partial text is the record of what the model said; the notice is what the user is told.
    stored: partial,
    shown: partial ? `${partial}\n\n${userText}` : userText,
    error: { code: err.error.code, message: err.message },
  };
}
