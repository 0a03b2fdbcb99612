// What the gateway does with each recorded command (SPEC §7), looked up by name: stop the reply,
// answer with a notice, or run the command's operation (src/ops, src/rooms) and show its answer.
// The commands themselves (names, arguments, where they apply) are declared in
// src/domain/commandRegistry.ts; ingest has already recorded the command and done its part.
import type { InboundEvent } from '../ingest/inboundEvent.js';
import type { IngestResult } from '../ingest/ingest.js';
import type { Locale, TextKey } from '../i18n/texts.js';
import {
  COMMANDS,
  refusalFor,
  type CommandArgs,
  type CommandName,
  type RoomCommandName,
} from '../domain/commandRegistry.js';
import { runRoomCommand } from '../rooms/roomCommands.js';
import { endCurrentRound } from '../rooms/roomOps.js';
import { runBackgroundCommand } from '../ops/backgroundCommand.js';
import { runAgentCommand } from '../ops/agentCommand.js';
import { runAllowCommand, runStartCommand } from '../ops/accessCommands.js';
import type { HandleInboundDeps } from './handleInbound.js';

/** One recorded command as its handler sees it, with the two ways it answers the chat. */
export interface CommandCall {
  deps: HandleInboundDeps;
  r: Extract<IngestResult, { kind: 'command' }>;
  ev: InboundEvent;
  locale: Locale;
  /** In a group the answer quotes the command, so people see whom it is for. */
  replyTo: string | undefined;
  /** Answers with one of the texts, its key as the notice code. */
  say(key: TextKey): Promise<void>;
  /** Answers with a text already composed, under its notice code. */
  show(shown: string, code: string): Promise<void>;
}

/** What a command does once recorded; `args` as its registry entry parsed them. */
type CommandHandler<A> = (c: CommandCall, args: A) => Promise<void>;

/** A room command: the room's answer, under a notice code per command (`ROOM_PAUSE`…). */
const roomHandler =
  (name: RoomCommandName): CommandHandler<unknown> =>
  async (c) => {
    const { r } = c;
    const room = { name, args: r.args, dialogueId: r.dialogueId, platform: r.chat.platform };
    const shown = await runRoomCommand(c.deps.store, room, c.locale, new Date());
    return c.show(shown, `ROOM_${name.toUpperCase()}`);
  };

/** An agent command: `/agents` lists, `/agent NAME` switches (the parse tells which). */
const agentHandler: CommandHandler<string> = async (c, wanted) => {
  const answer = await runAgentCommand(c.deps.store, { wanted, chat: c.r.chat }, c.locale, new Date());
  return c.show(answer.shown, answer.code);
};

/** Why a map and not a switch: the type demands a handler for every registered command. */
export const COMMAND_HANDLERS: { readonly [N in CommandName]: CommandHandler<CommandArgs[N]> } = {
  start: async (c, code) => {
    const { r } = c;
    const asked = { humanId: r.humanId, code, admitted: r.admitted };
    return c.say(await runStartCommand(c.deps.store, asked, new Date()));
  },
  allow: async (c) => {
    const { r } = c;
    return c.say(await runAllowCommand(c.deps.store, { humanId: r.humanId, dialogueId: r.dialogueId }, new Date()));
  },
  stop: async (c) => {
    const { deps, r } = c;
    // In a room, /stop also ends the round, so no further agent is asked.
    const roundEnded = await endCurrentRound(deps.store, r.dialogueId, new Date());
    if (await deps.replyLease.isHeld(r.dialogueId)) await deps.interrupt(r.dialogueId);
    else if (!roundEnded) await c.say('NOTHING_TO_STOP');
  },
  new: (c) => c.say('NEW_SESSION'),
  summary: async (c) => {
    const { deps, r } = c;
    if (!deps.requestSummary) return;
    await c.say('SUMMARY_STARTED');
    return deps.requestSummary(r.sessionId, {
      messageId: r.messageId,
      dialogueId: r.dialogueId,
      sessionId: r.sessionId,
      locale: c.locale,
      ...(c.replyTo ? { replyTo: c.replyTo } : {}),
    });
  },
  background: async (c, request) => {
    const shown = await runBackgroundCommand(
      c.deps.store,
      { dialogueId: c.r.dialogueId, request },
      c.locale,
      new Date(),
    );
    return c.show(shown, 'BACKGROUND');
  },
  agents: agentHandler,
  agent: agentHandler,
  help: (c) => c.say('HELP'),
  answerall: (c, on) => c.say(on ? 'ANSWER_ALL_ON' : 'ANSWER_ALL_OFF'),
  link: async (c, code) => {
    const { deps, ev } = c;
    if (!deps.link || ev.kind !== 'message') return c.say('LINK_PRIVATE_ONLY');
    const identity = {
      platform: ev.platform,
      userId: ev.sender.userId,
      displayName: ev.sender.displayName ?? ev.sender.username ?? ev.sender.userId,
    };
    return c.say((await deps.link(identity, code)) ? 'LINK_DONE' : 'LINK_CODE_INVALID');
  },
  room: roomHandler('room'),
  pause: roomHandler('pause'),
  resume: roomHandler('resume'),
  host: roomHandler('host'),
};

/** Runs a recorded command: refused in a chat it does not apply in, else its handler with its parsed arguments. */
export function runCommand<N extends CommandName>(name: N, c: CommandCall): Promise<void> {
  const refusal = refusalFor(name, c.r.groupChat);
  if (refusal) return c.say(refusal);
  const handler: CommandHandler<CommandArgs[N]> = COMMAND_HANDLERS[name];
  return handler(c, COMMANDS[name].parse(c.r.args));
}
