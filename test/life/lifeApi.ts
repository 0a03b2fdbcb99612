// What the life suite reads and does through the GraphQL ops API — the same view an operator
// has — so the suite stays black-box: no store, no internal function names.
import type { Harness } from '../support/harness.js';

/** One GraphQL call; GraphQL errors throw, naming the call (a missing field or mutation fails loudly). */
export async function gq<T>(
  h: Harness,
  what: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const r = await h.gql<T>(query, variables);
  if (r.body.errors?.length || !r.body.data)
    throw new Error(`${what}: ${r.body.errors?.map((e) => e.message).join('; ') ?? `HTTP ${r.status}, no data`}`);
  return r.body.data;
}

interface Edges<T> {
  edges: Array<{ node: T }>;
}

export interface DialogueRef {
  id: string;
  chat: { platform: string; chatId: string };
  humanIds: string[];
}

export async function dialogues(h: Harness): Promise<DialogueRef[]> {
  const d = await gq<{ dialogues: Edges<DialogueRef> }>(
    h,
    'dialogues',
    '{ dialogues(first: 100) { edges { node { id chat { platform chatId } humanIds } } } }',
  );
  return d.dialogues.edges.map((e) => e.node);
}

export interface SessionRef {
  id: string;
  status: string;
  startedAt: string;
  closeReason: string | null;
}

export async function sessionsOf(h: Harness, dialogueId: string): Promise<SessionRef[]> {
  const d = await gq<{ dialogue: { sessions: Edges<SessionRef> } }>(
    h,
    'sessions',
    'query($id: ID!) { dialogue(id: $id) { sessions(first: 50) { edges { node { id status startedAt closeReason } } } } }',
    { id: dialogueId },
  );
  return d.dialogue.sessions.edges.map((e) => e.node);
}

export interface MessageRef {
  id: string;
  senderRole: string;
  content: string;
  turnId: string | null;
  visible: boolean;
  delivery: { state: string } | null;
}

export async function messagesOf(h: Harness, dialogueId: string): Promise<MessageRef[]> {
  const d = await gq<{ dialogue: { messages: Edges<MessageRef> } }>(
    h,
    'messages',
    `query($id: ID!) { dialogue(id: $id) { messages(last: 40) { edges { node {
       id senderRole content turnId visible delivery { state } } } } } }`,
    { id: dialogueId },
  );
  return d.dialogue.messages.edges.map((e) => e.node);
}

export interface ContextBuilt {
  id: string;
  turnId: string | null;
  /** The event's data: `prompt` (the messages sent), `totalTokens`, parts, recall… */
  data: Record<string, unknown>;
}

/** The dialogue's latest context_built events (each turn's prompt as the gateway built it). */
export async function contextsOf(h: Harness, dialogueId: string): Promise<ContextBuilt[]> {
  const d = await gq<{ events: Edges<ContextBuilt> }>(
    h,
    'context_built events',
    'query($d: ID!) { events(dialogueId: $d, kind: context_built, last: 100) { edges { node { id turnId data } } } }',
    { d: dialogueId },
  );
  return d.events.edges.map((e) => e.node);
}

/** Every memory the ops API lists (all agents, all people), newest first. */
export async function allMemories(
  h: Harness,
): Promise<Array<{ text: string; status: string; subjectId: string | null }>> {
  const d = await gq<{ memories: Edges<{ text: string; status: string; subjectId: string | null }> }>(
    h,
    'memories',
    '{ memories(first: 100) { edges { node { text status subjectId } } } }',
  );
  return d.memories.edges.map((e) => e.node);
}

export async function maxTotalTokens(h: Harness): Promise<number> {
  const d = await gq<{ config: { limits: { max_total_tokens: number } } }>(
    h,
    'config',
    '{ config { limits { max_total_tokens } } }',
  );
  return d.config.limits.max_total_tokens;
}

export async function defaultAgentId(h: Harness): Promise<string> {
  const d = await gq<{ agents: Edges<{ id: string; isDefault: boolean }> }>(
    h,
    'agents',
    '{ agents(first: 50) { edges { node { id isDefault } } } }',
  );
  const found = d.agents.edges.find((e) => e.node.isDefault)?.node.id;
  if (!found) throw new Error('no default agent');
  return found;
}

export async function agentPersona(h: Harness, agentId: string): Promise<string | null> {
  const d = await gq<{ agent: { evolvedPersona: string | null } }>(
    h,
    'agent',
    'query($id: ID!) { agent(id: $id) { evolvedPersona } }',
    { id: agentId },
  );
  return d.agent.evolvedPersona;
}

export async function createAgent(h: Harness, name: string, basePersona: string): Promise<string> {
  const d = await gq<{ createAgent: { id: string } }>(
    h,
    'createAgent',
    'mutation($n: String!, $p: String!) { createAgent(name: $n, basePersona: $p) { id } }',
    { n: name, p: basePersona },
  );
  return d.createAgent.id;
}

export async function createRoom(
  h: Harness,
  o: { chatId: number; name: string; agentIds: string[] },
): Promise<{ id: string; dialogueId: string }> {
  const d = await gq<{ createRoom: { id: string; dialogue: { id: string } | null } }>(
    h,
    'createRoom',
    `mutation($input: CreateRoomInput!) { createRoom(input: $input) { id dialogue { id } } }`,
    { input: { platform: 'telegram', chatId: String(o.chatId), name: o.name, mode: 'DEFAULT', agentIds: o.agentIds } },
  );
  if (!d.createRoom.dialogue) throw new Error('createRoom: the room has no dialogue');
  return { id: d.createRoom.id, dialogueId: d.createRoom.dialogue.id };
}

export async function issueWebToken(h: Harness, name: string): Promise<{ token: string; userId: string }> {
  const d = await gq<{ issueWebToken: { token: string; user: { id: string } } }>(
    h,
    'issueWebToken',
    'mutation($n: String!) { issueWebToken(name: $n) { token user { id } } }',
    { n: name },
  );
  return { token: d.issueWebToken.token, userId: d.issueWebToken.user.id };
}

/** Queues a persona evolution of the agent now (the mutation an operator uses). */
export async function evolveNow(h: Harness, agentId: string): Promise<void> {
  await gq(h, 'evolvePersona', 'mutation($a: ID!) { evolvePersona(agentId: $a) { queued } }', { a: agentId });
}

/** BR-006: forget a person — everything learned only from them. */
export async function deletePerson(h: Harness, humanId: string): Promise<unknown> {
  return gq(h, 'deletePerson', 'mutation($id: ID!) { deletePerson(id: $id) { __typename } }', { id: humanId });
}
