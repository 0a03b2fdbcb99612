// What ingest does with a command as it records it, under the chat's guard and before the gateway
// answers: /new closes the session so the next message opens a fresh one; /answerall flips the
// group's flag. Looked up by name from the registry's `atIngest` commands (src/domain/commandRegistry.ts).
import type { Session } from '../domain/model.js';
import {
  COMMANDS,
  refusalFor,
  type CommandArgs,
  type CommandName,
  type IngestCommandName,
} from '../domain/commandRegistry.js';
import { startNewSession, type SessionDeps } from '../lifecycle/currentSession.js';

/** Where a command was recorded: enough for its ingest effect, nothing of the gateway's. */
export interface IngestCommandCall {
  deps: SessionDeps;
  dialogueId: string;
  session: Pick<Session, '_id' | 'dialogueId'>;
  groupChat: boolean;
  now: Date;
}

/** Why a map and not a switch: the type demands an effect for every `atIngest` command, and no other. */
export const INGEST_EFFECTS: {
  readonly [N in IngestCommandName]: (c: IngestCommandCall, args: CommandArgs[N]) => Promise<unknown>;
} = {
  new: (c) => startNewSession(c.deps, c.dialogueId, c.session, c.now),
  answerall: (c, on) => c.deps.store.dialogues.setAnswerAll(c.dialogueId, on, c.now),
};

const hasIngestEffect = (name: string): name is IngestCommandName => Object.hasOwn(INGEST_EFFECTS, name);

/** Runs a recorded command's ingest effect, if it has one and applies in this chat (`/answerall` in a group). */
export async function actOnCommandAtIngest(c: IngestCommandCall, name: CommandName, rawArgs: string): Promise<void> {
  if (!hasIngestEffect(name) || refusalFor(name, c.groupChat)) return;
  await runEffect(c, name, rawArgs);
}

/** Parses and runs one effect; generic so the parser's type meets its effect's (correlated union). */
function runEffect<N extends IngestCommandName>(c: IngestCommandCall, name: N, rawArgs: string): Promise<unknown> {
  const effect: (c: IngestCommandCall, args: CommandArgs[N]) => Promise<unknown> = INGEST_EFFECTS[name];
  return effect(c, COMMANDS[name].parse(rawArgs));
}
