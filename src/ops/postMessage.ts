// An operator or system message posted into a dialogue (SPEC §10): checked like user input
// (BR-001), stored first and then sent (persist before push), split like replies, recorded as a
// `system` message with the platform message ids and a `system_utterance` event. It opens no
// turn and enqueues nothing, so no AI reply follows it; agents read an operator-signed post in
// their next prompts, marked as the operator's (`isShownToAgents`), a `system`-signed one not.
import type { Message } from '../domain/model.js';
import { checkInboundText } from '../domain/content.js';
import { operatorSenderId } from '../domain/conversation.js';
import { newId } from '../domain/ids.js';
import { GatewayError } from '../errors.js';
import { splitForPlatform } from '../delivery/split.js';
import { classifyDeliveryError } from '../delivery/deliveryErrors.js';
import type { OpsDeps } from './opsDeps.js';
import { currentSessionFor } from '../lifecycle/currentSession.js';
import { guardKeys } from '../store/stateGuard.js';

export type PostAs = 'system' | 'operator';

export interface PostMessageInput {
  dialogueId: string;
  text: string;
  as: PostAs;
  /** The operator token's name: an operator message is signed `operator:<name>`. */
  by: string;
}

export const senderIdOf = (as: PostAs, by: string) => (as === 'operator' ? operatorSenderId(by) : 'system');

/** A stable code for a platform call that failed after the outbound's own retries. */
export function deliveryFailureCode(err: unknown): string {
  const own = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (own === 'DELIVERY_BUDGET_TIMEOUT') return own;
  const f = classifyDeliveryError(err);
  if (f.kind === 'permanent') return 'PLATFORM_REJECTED';
  return f.kind === 'rate_limited' ? 'PLATFORM_RATE_LIMITED' : 'PLATFORM_UNAVAILABLE';
}

export async function postMessage(
  deps: Pick<OpsDeps, 'store' | 'outbounds' | 'scheduler' | 'sessionGapMs' | 'log'>,
  input: PostMessageInput,
  now: Date,
): Promise<Message> {
  const { store } = deps;
  const check = checkInboundText(input.text);
  if (!check.ok) {
    throw new GatewayError(
      check.code,
      check.code === 'MESSAGE_TOO_LONG' ? 'the text is longer than 10 000 characters' : 'the text is empty',
    );
  }
  const dialogue = await store.dialogues.get(input.dialogueId);
  if (!dialogue) throw new GatewayError('CONVERSATION_NOT_FOUND', `no dialogue with id ${input.dialogueId}`);
  const outbound = deps.outbounds[dialogue.chat.platform];
  if (!outbound)
    throw new GatewayError(
      'PLATFORM_NOT_CONFIGURED',
      `no ${dialogue.chat.platform} bot is configured in this deployment; the message was not stored`,
    );

  // Stored and counted under the dialogue's state guard, like ingest; sent after it is released.
  const message = await store.guard.run(guardKeys.dialogue(dialogue._id), async () => {
    const { session } = await currentSessionFor(deps, dialogue, now);
    const m: Message = {
      _id: newId('msg', now),
      dialogueId: dialogue._id,
      sessionId: session._id,
      senderRole: 'system',
      senderId: senderIdOf(input.as, input.by),
      contentType: 'text',
      content: check.text,
      mentions: [],
      visible: true,
      delivery: { state: 'streaming', platformMessageIds: [] },
      createdAt: now,
      updatedAt: now,
    };
    await store.messages.insertOnce(m);
    // Counted like every other message; it is activity, so the session's gap restarts here.
    await Promise.all([
      store.dialogues.noteActivity(dialogue._id, { at: now, currentSessionId: session._id, messages: 1 }),
      store.sessions.touch(session, now, { messages: 1, turns: 0 }),
    ]);
    return m;
  });
  const sessionId = message.sessionId;

  const platformMessageIds: string[] = [];
  let error: { code: string; message: string } | undefined;
  try {
    for (const chunk of splitForPlatform(check.text, outbound.maxMessageChars)) {
      const sent = await outbound.send(dialogue.chat, chunk);
      // Recorded before the next chunk goes out (the outbox), as replies do.
      await store.messages.recordPlatformMessage(message, dialogue.chat, sent.platformMessageId);
      platformMessageIds.push(sent.platformMessageId);
    }
  } catch (err) {
    error = { code: deliveryFailureCode(err), message: err instanceof Error ? err.message : String(err) };
    deps.log.warn(
      { dialogueId: dialogue._id, messageId: message._id, code: error.code, err: error.message },
      'posting a system message failed',
    );
  }
  const at = new Date();
  await store.messages.finishReply(
    message,
    { state: error ? 'error' : 'complete', content: check.text, ...(error ? { error } : {}) },
    at,
  );
  await store.events.record({
    kind: 'system_utterance',
    dialogueId: dialogue._id,
    sessionId,
    messageId: message._id,
    at,
    data: {
      code: input.as === 'operator' ? 'operator_message' : 'system_message',
      by: input.by,
      content: check.text,
      platformMessageIds,
      error: error ?? null,
    },
  });
  const stored = await store.messages.get(message._id);
  if (!stored) throw new GatewayError('MESSAGE_NOT_FOUND', `message ${message._id} was deleted meanwhile`);
  return stored;
}
