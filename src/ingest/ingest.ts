// Ingest (SPEC §4.1): validate, deduplicate, store, resolve dialogue/session/turn, decide who
// must answer (§7), enqueue. Runs in the adapter process and touches only the store and queue.
// A new message is read for (chatPlace.ts, storedMessage.ts), decided on (placement.ts, pure),
// then written (writePlacement.ts), all under the dialogue's state guard.
import type { Store } from '../store/store.js';
import type { Agent, ChatRef, Dialogue } from '../domain/model.js';
import { dialogueTypeOf } from '../domain/dialogueType.js';
import { newId } from '../domain/ids.js';
import { activation } from '../domain/activation.js';
import { DEFAULT_AGENT_ID } from '../store/participants.js';
import { chatRefOf, type InboundEvent, type InboundMessage } from './inboundEvent.js';
import { withChosenAgent } from './privateAgent.js';
import type { Scheduler } from '../lifecycle/scheduler.js';
import { parseCommand } from '../domain/commands.js';
import { isCommandName, type CommandName } from '../domain/commandRegistry.js';
import { dialogueIdOf } from '../store/dialogues.js';
import { guardKeys } from '../store/stateGuard.js';
import { addressCheck, isOwnEcho } from './addressing.js';
import { resolveQuote } from './quote.js';
import { albumMessageIdOf, messageIdOf } from './messageIds.js';
import { ingestDelete, ingestEdit } from './edits.js';
import { readRoom } from './roomIngest.js';
import type { PointerHints } from './pointerHints.js';
import { inboundMessage } from './inboundMessage.js';
import { ingestKnown, locateMessage } from './storedMessage.js';
import { decidePlacement, type PlacementInput, type RefusalCode, type SpentBudget } from './placement.js';
import type { RefusalReason } from '../domain/access.js';
import { writePlacement } from './writePlacement.js';
import type { ReplyJob } from '../domain/replyJob.js';
import type { BudgetGate } from '../budget/budgetGate.js';
import { senderGate } from './senderGate.js';
import { CLEAN, type ModerationVerdict } from '../domain/moderation.js';
import { recordInboundModeration } from '../moderation/moderationEvent.js';

export type { ReplyJob } from '../domain/replyJob.js';

export interface IngestDeps {
  store: Store;
  enqueueReply(job: ReplyJob): Promise<void>;
  scheduler: Scheduler;
  sessionGapMs: number;
  responseWindowMs: number;
  /** How long the reply to a Telegram album waits for the album's other items. */
  albumSettleMs?: number;
  /** Budgets before the call (SPEC §14): a sender past a cap is recorded, not answered. */
  budget?: BudgetGate;
  /** Moderation of incoming text (SPEC §14). Asked before the dialogue's guard; a flagged message is refused. */
  moderate?(text: string): Promise<ModerationVerdict>;
  /** This process's last view of each chat's pointers: a known chat's reads go out in one round trip. */
  pointerHints?: PointerHints;
  now?: () => Date;
}

interface Placed {
  messageId: string;
  dialogueId: string;
  sessionId: string;
  chat: ChatRef;
}

export type IngestResult =
  | ({ kind: 'accepted'; turnId: string } & Placed)
  | { kind: 'duplicate'; messageId: string }
  | ({
      kind: 'command';
      name: CommandName;
      args: string;
      groupChat: boolean;
      /** The sender, and whether they are let in (false: knocking with `/start CODE`). */
      humanId: string;
      admitted: boolean;
    } & Placed)
  | ({ kind: 'rejected'; code: 'MESSAGE_CONTENT_REQUIRED' | 'MESSAGE_TOO_LONG' } & Placed)
  /** A sender SPEC §14 refuses (not let in, blocked, past a budget, flagged): recorded, never answered. */
  | ({
      kind: 'refused';
      reason: RefusalReason;
      code: RefusalCode;
      /** Someone was asked: the sender may be told why (once per window). */
      addressed: boolean;
      humanId: string;
      /** A spent budget: whose, and when it resets. */
      spent?: SpentBudget;
    } & Placed)
  /** Stored as group context; nobody was addressed, so nobody answers. */
  | ({ kind: 'context' } & Placed)
  /** A later item of a Telegram album, added to the album's message. */
  | { kind: 'album_item'; messageId: string }
  | { kind: 'edited'; messageId: string }
  | { kind: 'deleted'; messageId: string }
  | { kind: 'ignored'; reason: 'own_bot' | 'unknown_message' | 'unchanged' };

export async function ingest(deps: IngestDeps, ev: InboundEvent): Promise<IngestResult> {
  if (ev.kind === 'edit') return ingestEdit(deps.store, ev);
  if (ev.kind === 'delete') return ingestDelete(deps.store, ev);
  return ingestMessage(deps, ev);
}

async function ingestMessage(deps: IngestDeps, ev: InboundMessage): Promise<IngestResult> {
  if (isOwnEcho(ev)) return { kind: 'ignored', reason: 'own_bot' };
  // A private chat whose person chose an agent goes to that agent's dialogue: read before the
  // guard, whose key is that dialogue's.
  const chat = await withChosenAgent(deps.store, chatRefOf(ev), ev.chat.kind);
  // Ids derive from the platform reference (or the album), so dedupe is a lookup by _id.
  const albumId = ev.mediaGroupId ? albumMessageIdOf(chat, ev.mediaGroupId) : undefined;
  const messageId = albumId ?? messageIdOf(chat, ev.platformMessageId);
  // Deduplicating and placing the message (session, turn, pointers, window) is one decision
  // under the dialogue's state guard: a redelivery racing the original sees it stored, and a
  // reply that starts meanwhile either sees this message or it opens the next turn.
  // A moderation endpoint may take a while: asked before the guard, never under it.
  const verdict = ev.text && !ev.sender.isBot && deps.moderate ? await deps.moderate(ev.text) : CLEAN;
  const jobs: ReplyJob[] = [];
  const collecting: IngestDeps = { ...deps, enqueueReply: (job) => Promise.resolve(void jobs.push(job)) };
  const result = await deps.store.guard.run(guardKeys.dialogue(dialogueIdOf(chat)), (hold) =>
    placeMessage(collecting, ev, {
      chat,
      messageId,
      albumId,
      flagged: verdict.flagged,
      // Read under the guard: the chat's messages and replies are then dated in the order they
      // were placed and read, so a reply sorts after every message its prompt held (issue 35).
      now: deps.now?.() ?? new Date(),
      // An outer hold may write more after this one's documents: nothing is left for the reply then.
      ...(hold.reentered ? {} : { generation: hold.generation }),
    }),
  );
  // Queued once the guard is free: the reply's start takes the same guard, and would otherwise
  // wait for this ingest to let go of it. A job lost to a crash here is queued again by the
  // redelivered update or the sweeper.
  for (const job of jobs) await deps.enqueueReply(job);
  // A flagged message, or one the endpoint could not check, is in the record for operators.
  if ('dialogueId' in result)
    await recordInboundModeration(deps.store.events, { ...result, verdict, text: ev.text ?? '' });
  return result;
}

/**
 * Places a new message under the dialogue's guard: reads what the decision needs (by `_id`),
 * decides what the message is (placement.ts, pure), then writes it (writePlacement.ts).
 */
async function placeMessage(
  deps: IngestDeps,
  ev: InboundMessage,
  o: {
    chat: ChatRef;
    messageId: string;
    albumId: string | undefined;
    flagged: boolean;
    now: Date;
    generation?: number;
  },
): Promise<IngestResult> {
  const { store } = deps;
  const { chat, messageId, albumId, now } = o;
  const identity = {
    platform: ev.platform,
    userId: ev.sender.userId,
    username: ev.sender.username,
    displayName: ev.sender.displayName,
  };
  const type = dialogueTypeOf({ humans: 1, agents: 1, groupChat: ev.chat.kind === 'group' }) ?? 'human_ai';
  const found = await locateMessage(deps, { chat, identity, type, messageId, now });
  if (found.kind === 'known') return ingestKnown(deps, ev, found, { albumId, now });
  const { place, orphan } = found;
  const { human, dialogue, session } = place;
  const [agent, quote, room, { config }] = await Promise.all([
    dialogueAgent(store, dialogue, place.defaultAgent),
    resolveQuote(store, chat, dialogue._id, ev),
    readRoom(store, dialogue),
    store.config.get(),
  ]);
  const gate = await senderGate({ ev, human, dialogue, config, flagged: o.flagged, budget: deps.budget, now });
  const message = inboundMessage(ev, {
    messageId,
    dialogueId: dialogue._id,
    sessionId: session._id,
    humanId: human._id,
    quote,
    now,
  });
  const input: PlacementInput = {
    ev,
    message,
    dialogue,
    session,
    sessionOpened: place.opened,
    latestTurn: place.latestTurn,
    command: knownCommand(ev),
    agentId: agent._id,
    activation: activation(addressCheck(ev, { agent, dialogue, ...(quote ? { quote } : {}) })),
    room,
    newTurnId: newId('trn', now),
    responseWindowMs: deps.responseWindowMs,
    gate,
    now,
  };
  const writing = { deps, place, chat, messageId, orphan, albumId, generation: o.generation, now };
  return writePlacement(writing, decidePlacement(input));
}

/** The command the message gives, when it is one we know; anything else starting with "/" is ordinary text. */
function knownCommand(ev: InboundMessage): { name: CommandName; args: string } | undefined {
  const command = parseCommand(ev.text, ev.recipient?.username);
  return command && isCommandName(command.name) ? { name: command.name, args: command.args } : undefined;
}

/**
 * Who answers a dialogue outside rooms: the agent it was opened with (a web conversation names
 * one), else the deployment's default agent (read alongside the dialogue, so usually no extra read).
 */
async function dialogueAgent(store: Store, dialogue: Dialogue, defaultAgent: Agent | null): Promise<Agent> {
  const own = dialogue.roomId ? undefined : dialogue.agentIds[0];
  const agent = own && own !== DEFAULT_AGENT_ID ? await store.participants.getAgent(own) : defaultAgent;
  if (!agent) throw new Error(`agent ${own ?? DEFAULT_AGENT_ID} not found`);
  return agent;
}
