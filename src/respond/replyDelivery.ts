// How a reply reaches people (SPEC §4.2 steps 5–6): the chat's outbound (the agent's own account,
// else the deployment's) with the typing indicator, the reply's streamer (platform, persona, a
// group's quote), and the one final push, recorded as the turn's `delivery` event.
import type { Dialogue, Message, Platform, Turn } from '../domain/model.js';
import { requireTurnAgent } from '../domain/turnRules.js';
import type { GatheredContext } from '../context/gatherContext.js';
import type { OutboundChannel } from '../delivery/outbound.js';
import { ReplyStreamer } from '../delivery/replyStreamer.js';
import { TypingIndicator } from '../delivery/typingIndicator.js';
import type { TurnTrace } from '../trace/turnTrace.js';
import type { RespondDeps } from './respondDeps.js';
import type { Outcome } from './replyOutcome.js';

/** Where a reply goes out, and the typing shown until its first text. */
export interface ReplyChannel {
  outbound: OutboundChannel;
  typing: TypingIndicator;
}

/** The chat's outbound for this turn's agent, typing already shown. */
export async function openChannel(deps: RespondDeps, turn: Turn, dialogue: Dialogue): Promise<ReplyChannel> {
  const outbound =
    (await deps.agentOutbound?.(requireTurnAgent(turn), dialogue.chat)) ?? deps.outbounds[dialogue.chat.platform];
  if (!outbound) throw new Error(`no outbound channel for ${dialogue.chat.platform}`);
  // Renewed until the first text shows; the cap ends it if this reply fails before streaming.
  const typing = new TypingIndicator(outbound, dialogue.chat, {
    maxMs: deps.llmTimeoutMs + 30_000,
    onError: (err) => deps.log.debug({ err }, 'typing action failed'),
  }).start();
  return { outbound, typing };
}

/** A platform's own stream interval (the web streams finer than chat apps allow edits). */
const streamIntervalOf = (deps: RespondDeps, platform: Platform): number =>
  deps.platforms?.get(platform).streamIntervalMs ?? deps.streamEditIntervalMs;

/** The reply's streamer: the platform, the persona, and in a group a quote of whom it answers. */
export function openStreamer(
  deps: RespondDeps,
  o: {
    dialogue: Dialogue;
    reply: Message;
    outbound: OutboundChannel;
    typing: TypingIndicator;
    gathered: GatheredContext;
    ready?: Promise<unknown>;
  },
): ReplyStreamer {
  const { dialogue, reply } = o;
  const persona = deps.personaOf?.(o.gathered.agent, dialogue.chat);
  const groupReplyTo =
    dialogue.type === 'group'
      ? o.gathered.input.filter((m) => m.senderRole === 'human').at(-1)?.platformRef?.messageId
      : undefined;
  return new ReplyStreamer({
    message: reply,
    chat: dialogue.chat,
    outbound: o.outbound,
    messages: deps.store.messages,
    intervalMs: streamIntervalOf(deps, dialogue.chat.platform),
    deliveredIds: reply.delivery?.platformMessageIds ?? [],
    typing: o.typing,
    ...(o.ready ? { ready: o.ready } : {}),
    // Drafts exist only in private chats; the outbound has draft() only when they are enabled.
    drafts: dialogue.type === 'human_ai',
    sendOptions: {
      ...(groupReplyTo ? { replyToPlatformMessageId: groupReplyTo } : {}),
      ...(persona ? { persona } : {}),
    },
  });
}

/** The final push, recorded as the `delivery` event; a failure is thrown so the job retries (the outbox prevents duplicates). */
export async function deliver(
  streamer: ReplyStreamer,
  trace: TurnTrace,
  dialogue: Dialogue,
  shown: string,
): Promise<void> {
  let deliveryError: Error | undefined;
  try {
    await streamer.finish(shown);
  } catch (err) {
    deliveryError = err instanceof Error ? err : new Error(String(err));
  }
  const intermediate = streamer.lastError;
  await trace.record('delivery', {
    platform: dialogue.chat.platform,
    ok: deliveryError === undefined,
    platformMessageIds: streamer.platformMessageIds,
    intermediateError:
      intermediate instanceof Error ? intermediate.message : intermediate === undefined ? null : 'unknown error',
    error: deliveryError?.message ?? null,
  });
  if (deliveryError !== undefined) throw deliveryError;
}

/** The outcome's final push; a room's skip shows nothing, and its delivery is recorded as skipped. */
export async function deliverOutcome(
  o: { streamer: ReplyStreamer; trace: TurnTrace; dialogue: Dialogue; typing: TypingIndicator },
  outcome: Pick<Outcome, 'shown' | 'skipped'>,
): Promise<void> {
  if (outcome.skipped) {
    o.typing.stop();
    await o.trace.record('delivery', {
      platform: o.dialogue.chat.platform,
      ok: true,
      skipped: true,
      platformMessageIds: [],
    });
  } else await deliver(o.streamer, o.trace, o.dialogue, outcome.shown);
}

/** A turn that ends before the model is called (prompt too long): stored, then shown. */
export async function finishWithoutModel(
  deps: RespondDeps,
  o: {
    dialogue: Dialogue;
    reply: Message;
    trace: TurnTrace;
    outbound: OutboundChannel;
    state: 'error';
    shown: string;
    error: { code: string; message: string };
  },
): Promise<'error'> {
  await deps.store.messages.finishReply(o.reply, { state: o.state, content: '', error: o.error }, new Date());
  const streamer = new ReplyStreamer({
    message: o.reply,
    chat: o.dialogue.chat,
    outbound: o.outbound,
    messages: deps.store.messages,
    intervalMs: deps.streamEditIntervalMs,
    deliveredIds: o.reply.delivery?.platformMessageIds ?? [],
    drafts: false,
  });
  await deliver(streamer, o.trace, o.dialogue, o.shown);
  return o.state;
}
