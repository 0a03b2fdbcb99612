// The one list of chat commands (SPEC §7): each command declared once, with how its arguments
// parse, where it applies, whether ingest acts on it, and its menu label in each language. Pure
// data, no I/O: what a command does is attached where it runs, looked up by name
// (src/ingest/commandEffects.ts as it is recorded, src/inbound/commandHandlers.ts after), and
// the platforms' menus (adapters/telegram/commands.ts) are built from it.
import type { Locale, TextKey } from '../i18n/texts.js';
import { answerAllWanted, backgroundRequest } from './commands.js';

/**
 * Which chats a command applies in. Outside them the gateway answers with `refusal` (and ingest
 * does not act on it), so each command's "private chats only" lives here, not in its handler.
 */
export type CommandChats = { only: 'any' } | { only: 'private' | 'group'; refusal: TextKey };

/** Which bot's menu lists a command: the deployment's bot, or an agent's own bot. */
export type BotRole = 'deployment' | 'agent';

/**
 * One menu a command is listed in: a bot's menu for any chat, or the one it shows in private or
 * group chats instead (a chat shows the most specific menu its bot has, as Telegram does).
 */
export type MenuSlot = BotRole | `${BotRole}:${'private' | 'group'}`;

/** One command's declaration; `A` is what its arguments parse to, handed to its effects. */
export interface CommandDecl<A> {
  /** Its arguments (already trimmed by parseCommand) as its effects read them. */
  parse(args: string): A;
  chats: CommandChats;
  /** Ingest acts on it as it records it, under the chat's guard, before anything answers (e.g. /new). */
  atIngest?: true;
  /** It acts on the chat's room; in a chat that is no room, its handler says so. */
  room?: true;
  /** What a menu shows beside it, in each language people read (Chinese first). */
  label: Record<Locale, string>;
  /** The menus that list it, in the order of this registry; an empty list: typed, never offered. */
  menus: readonly MenuSlot[];
}

/** A command that reads no arguments: whatever follows it is ignored, as it always was. */
const noArgs = (): null => null;
/** A command whose argument is the rest of the text as typed (a code, a mention). */
const rest = (args: string): string => args;
/** Menu placements shared by the commands every bot offers everywhere but an agent bot's group. */
const EVERY_MENU: readonly MenuSlot[] = ['deployment', 'deployment:private', 'agent'];

/** One object, so its keys are the command names and its key order is the menus' order. */
const DECLARATIONS = {
  start: {
    // An invite code, from the Telegram deep link `t.me/<bot>?start=<code>` or typed (SPEC §14).
    parse: (args: string): string => args.trim(),
    chats: { only: 'any' },
    label: { 'zh-CN': '开始聊天', en: 'Start talking' },
    menus: EVERY_MENU,
  },
  stop: {
    parse: noArgs,
    chats: { only: 'any' },
    label: { 'zh-CN': '停止正在生成的回复', en: 'Stop the reply being written' },
    // In a room the deployment's bot answers for the room; an agent's bot only stops itself.
    menus: [...EVERY_MENU, 'agent:group'],
  },
  new: {
    parse: noArgs,
    chats: { only: 'any' },
    atIngest: true,
    label: { 'zh-CN': '开始新的对话', en: 'Start a new conversation session' },
    menus: EVERY_MENU,
  },
  summary: {
    parse: noArgs,
    chats: { only: 'any' },
    label: { 'zh-CN': '汇总对话并从摘要继续', en: 'Summarise and continue from the summary' },
    menus: EVERY_MENU,
  },
  background: {
    parse: backgroundRequest,
    chats: { only: 'any' },
    label: { 'zh-CN': '查看或切换故事背景', en: 'See or switch the story’s background' },
    menus: EVERY_MENU,
  },
  agents: {
    // Lists the agents: the same answer as `/agent` with no name.
    parse: (): string => '',
    chats: { only: 'private', refusal: 'AGENT_PRIVATE_ONLY' },
    label: { 'zh-CN': '查看可以聊天的角色', en: 'See whom you can talk to' },
    menus: ['deployment:private'],
  },
  agent: {
    // The agent wanted, by name, alias or number; `@name` as people type it in a mention.
    parse: (args: string): string => args.trim().replace(/^@/, ''),
    chats: { only: 'private', refusal: 'AGENT_PRIVATE_ONLY' },
    label: { 'zh-CN': '切换聊天角色：/agent 名字', en: 'Talk to someone else: /agent NAME' },
    menus: ['deployment:private'],
  },
  help: {
    parse: noArgs,
    chats: { only: 'any' },
    label: { 'zh-CN': '使用帮助', en: 'What I can do' },
    menus: EVERY_MENU,
  },
  answerall: {
    parse: answerAllWanted,
    chats: { only: 'group', refusal: 'GROUPS_ONLY' },
    atIngest: true,
    label: { 'zh-CN': '群里每条消息都回复（/answerall off 关闭）', en: 'Answer every message here (/answerall off)' },
    menus: [],
  },
  link: {
    // A code is a key to someone's memory: only taken in a private chat, never read out in a group.
    parse: rest,
    chats: { only: 'private', refusal: 'LINK_PRIVATE_ONLY' },
    label: { 'zh-CN': '关联网页账号：/link 验证码', en: 'Link your web account: /link CODE' },
    menus: [],
  },
  allow: {
    // A person let in lets the group in (SPEC §14): everyone there may then talk.
    parse: noArgs,
    chats: { only: 'group', refusal: 'GROUPS_ONLY' },
    label: { 'zh-CN': '为本群开通聊天（需已开通）', en: 'Let this group in (if you are let in)' },
    menus: [],
  },
  room: {
    parse: noArgs,
    chats: { only: 'any' },
    room: true,
    label: { 'zh-CN': '查看房间：成员、模式和当前轮次', en: 'See the room: members, mode and round' },
    menus: [],
  },
  pause: {
    parse: noArgs,
    chats: { only: 'any' },
    room: true,
    label: { 'zh-CN': '暂停房间', en: 'Pause the room' },
    menus: [],
  },
  resume: {
    parse: noArgs,
    chats: { only: 'any' },
    room: true,
    label: { 'zh-CN': '恢复房间', en: 'Resume the room' },
    menus: [],
  },
  host: {
    // The mention of the agent to host; matched against the room's agents when it runs.
    parse: rest,
    chats: { only: 'any' },
    room: true,
    label: { 'zh-CN': '指定主持角色：/host @角色', en: 'Make an agent the host: /host @agent' },
    menus: [],
  },
} satisfies Record<string, CommandDecl<unknown>>;

/** Commands a user can send; anything else starting with "/" is ordinary text. */
export type CommandName = keyof typeof DECLARATIONS;

/** What each command's arguments parse to, so each effect is typed by its command's parser. */
export type CommandArgs = { [N in CommandName]: ReturnType<(typeof DECLARATIONS)[N]['parse']> };

/** The commands that act on a room (their handlers share the room lookup). */
export type RoomCommandName = {
  [N in CommandName]: (typeof DECLARATIONS)[N] extends { room: true } ? N : never;
}[CommandName];

/** The commands ingest acts on as it records them. */
export type IngestCommandName = {
  [N in CommandName]: (typeof DECLARATIONS)[N] extends { atIngest: true } ? N : never;
}[CommandName];

/**
 * The registry, typed so that looking a command up by a generic name keeps its argument type
 * (the declarations re-annotated as a mapped type: TypeScript's "correlated union" pattern).
 */
export const COMMANDS: { readonly [N in CommandName]: CommandDecl<CommandArgs[N]> } = DECLARATIONS;

/** Whether a parsed `/name` is one of ours (own keys only: `/constructor` is ordinary text). */
export const isCommandName = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

/** Every command, in registry (menu) order. */
export const COMMAND_NAMES: readonly CommandName[] = Object.keys(COMMANDS).filter(isCommandName);

/** The text that refuses a command in this kind of chat, or undefined when it applies here. */
export function refusalFor(name: CommandName, groupChat: boolean): TextKey | undefined {
  const chats = COMMANDS[name].chats;
  if (chats.only === 'any' || (chats.only === 'group') === groupChat) return undefined;
  return chats.refusal;
}

/** The commands one menu lists, in registry order. */
export const commandsIn = (slot: MenuSlot): CommandName[] =>
  COMMAND_NAMES.filter((name) => COMMANDS[name].menus.includes(slot));
