// Produce one AI message (SPEC §4.2, §5), step by step: the channel and typing, the prompt built
// and traced, the model's text streamed to people, the outcome stored and applied, the final
// push. Shared by answers (respondToTurn.ts) and AI-initiated check-ins (checkIn.ts).
import type { Dialogue, Message, Turn } from '../domain/model.js';
import { gatherContext, isPromptTooLong, type GatheredContext, type TooLongContext } from '../context/gatherContext.js';
import type { ContextDeps, ContextInputs, ReplyRecord } from '../context/contextReads.js';
import type { PromptTooLongError } from '../context/promptBudget.js';
import { text as notice } from '../i18n/texts.js';
import type { ReplyStreamer } from '../delivery/replyStreamer.js';
import { TurnTrace } from '../trace/turnTrace.js';
import { contextBuiltData, type ContextRun } from '../trace/contextEvent.js';
import { replyLaps } from '../metrics/metrics.js';
import { withCitedSources } from './replySources.js';
import { roomAsk } from './roomAsk.js';
import type { RespondDeps } from './respondDeps.js';
import { generateText, replyModelOf, type TextRequest } from './generateText.js';
import { deliverOutcome, finishWithoutModel, openChannel, openStreamer, type ReplyChannel } from './replyDelivery.js';
import {
  applyOutcome,
  direct,
  evolveEvery,
  finishedReplyOf,
  producedOf,
  type Outcome,
  type Produced,
} from './replyOutcome.js';

/** The AI message to produce: its turn, the message it streams into, and what the reply read. */
export interface AiMessageRequest {
  turn: Turn;
  dialogue: Dialogue;
  reply: Message;
  record: ReplyRecord;
  inputs?: ContextInputs;
  instruction?: string;
  /** Stored before anything is shown (the turn's mark, the reply's insert); a failure fails the reply. */
  stored?: Promise<unknown>;
}

/**
 * Generates one AI message into `reply` and shows it on the platform: prompt, tool loop,
 * streaming delivery, outcome. Shared by answers and AI-initiated (check-in) turns.
 */
export async function produceAiMessage(deps: RespondDeps, o: AiMessageRequest): Promise<Produced> {
  const { turn, dialogue, reply } = o;
  // Every line logged for this reply names its dialogue and turn (the streamer's and typing's too).
  deps = { ...deps, log: deps.log.child({ dialogueId: turn.dialogueId, turnId: turn._id }) };
  const lap = replyLaps(deps.metrics);
  const channel = await openChannel(deps, turn, dialogue);
  const now = new Date();
  const trace = new TurnTrace(deps.store.events, {
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    turnId: turn._id,
    messageId: reply._id,
  });
  let gathered: GatheredContext;
  try {
    gathered = await gather(deps, o, now);
  } catch (err) {
    if (!isPromptTooLong(err)) throw err;
    return answerTooLong(deps, err, { ...o, trace, channel });
  }
  lap('context');
  const traced = await traceContext(deps, trace, turn, gathered);
  const streamer = openStreamer(deps, {
    dialogue,
    reply,
    ...channel,
    gathered,
    ...(o.stored ? { ready: o.stored } : {}),
  });
  const fail = failWith(channel, streamer);
  const text = { turn, dialogue, gathered, streamer, trace, ...traced, now };
  const outcome = await generateOutcome(deps, text, fail);
  lap('model');
  await o.stored?.catch(fail);
  await streamer.endStreaming();
  await trace.settled();
  await deps.store.messages.finishReply(reply, finishedReplyOf(outcome, gathered, deps.counter), new Date());
  await applyOutcome(deps, gathered, { turn, replyId: reply._id, outcome, trace });
  await deliverOutcome({ streamer, trace, dialogue, typing: channel.typing }, outcome);
  lap('delivery');
  return producedOf(deps.counter, { turn, dialogue, reply, outcome, gathered });
}

/** The turn's context (SPEC §5), from the inputs the reply already read when it has them. */
function gather(deps: RespondDeps, o: AiMessageRequest, now: Date): Promise<GatheredContext> {
  const contextDeps: ContextDeps = deps; // RespondDeps carries everything the context needs
  return gatherContext(contextDeps, {
    turn: o.turn,
    dialogue: o.dialogue,
    replyId: o.reply._id,
    now,
    record: o.record,
    ...(o.inputs ? { inputs: o.inputs } : {}),
    ...(o.instruction ? { instruction: o.instruction } : {}),
  });
}

/** The model this context is sent to and the tools offered with it, for the `context_built` event. */
const contextRunOf = (deps: RespondDeps, g: Pick<GatheredContext, 'agent' | 'config'>): ContextRun => ({
  model: replyModelOf(deps, g).name,
  tools: deps.tools.specs().map((t) => t.name),
});

/**
 * Event `context_built`, stored once the model has the request (its answer began, or the call is
 * over): the write would otherwise go out beside the request and delay it. Settled before the
 * reply is finished. The prompt's budget warnings are recorded once per dialogue and category.
 */
async function traceContext(
  deps: RespondDeps,
  trace: TurnTrace,
  turn: Turn,
  gathered: GatheredContext,
): Promise<{ contextEventId: string; modelOpened: () => void }> {
  let modelOpened = (): void => undefined;
  const opened = new Promise<void>((resolve) => (modelOpened = resolve));
  const contextEventId = trace.begin('context_built', contextBuiltData(gathered, contextRunOf(deps, gathered)), opened);
  for (const w of gathered.warnings) {
    await deps.store.events.warnOnce({
      dialogueId: turn.dialogueId,
      sessionId: turn.sessionId,
      turnId: turn._id,
      category: w.category,
      data: { ...w },
    });
  }
  return { contextEventId, modelOpened };
}

/**
 * A failed attempt (the store gone mid-reply) ends its streaming, a send under way included,
 * before the reply lease is let go: else that send could land beside the retry's own.
 */
const failWith =
  (channel: ReplyChannel, streamer: ReplyStreamer) =>
  async (err: unknown): Promise<never> => {
    channel.typing.stop();
    await streamer.endStreaming();
    throw err;
  };

/** The model's text as the reply's outcome, with the knowledge it validly cited. */
async function generateOutcome(
  deps: RespondDeps,
  o: Omit<TextRequest, 'ask'>,
  fail: (err: unknown) => Promise<never>,
): Promise<Outcome> {
  const generated = await generateText(deps, { ...o, ask: roomAsk(deps.tools, o.turn) }).catch(fail);
  // The valid citations are recorded; channels without source events get footnotes.
  return withCitedSources(generated, {
    retrieved: o.gathered.knowledge?.sources ?? [],
    footnotes: deps.platforms?.find(o.dialogue.chat.platform)?.sourcesAsEvents !== true,
  });
}

/** Seed 001: over the limit the prompt is not sent; the user is told and offered a summary. */
async function answerTooLong(
  deps: RespondDeps,
  err: PromptTooLongError<TooLongContext>,
  o: {
    turn: Turn;
    dialogue: Dialogue;
    reply: Message;
    stored?: Promise<unknown>;
    trace: TurnTrace;
    channel: ReplyChannel;
  },
): Promise<Produced> {
  const { turn, dialogue, reply, trace } = o;
  await o.stored;
  await trace.record(
    'context_built',
    contextBuiltData(err.context, contextRunOf(deps, err.context), {
      tooLong: { tokens: err.tokens, limit: err.limit },
    }),
  );
  const shown = notice('PROMPT_TOO_LONG', deps.locale, { tokens: err.tokens, limit: err.limit });
  o.channel.typing.stop();
  // No reply, so no progress: it counts toward the director's reminder like a failed one.
  await direct(deps.store, err.context, { turn, replyId: reply._id, text: '', trace });
  const state = await finishWithoutModel(deps, {
    dialogue,
    reply,
    trace,
    outbound: o.channel.outbound,
    state: 'error',
    shown,
    error: { code: err.code, message: err.message },
  });
  return { state, foldDue: true, evolveEveryTurns: evolveEvery(err.context) };
}
