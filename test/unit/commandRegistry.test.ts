// The command registry (src/domain/commandRegistry.ts) is the one list of chat commands: each has
// a handler, an ingest effect exactly when it says so, a menu label in both languages, and the
// Telegram menus built from it are the ones published before the registry existed.
import { describe, expect, it } from 'vitest';
import {
  COMMAND_NAMES,
  COMMANDS,
  isCommandName,
  refusalFor,
  type CommandName,
} from '../../src/domain/commandRegistry.js';
import { COMMAND_HANDLERS } from '../../src/inbound/commandHandlers.js';
import { INGEST_EFFECTS } from '../../src/ingest/commandEffects.js';
import { BOT_COMMANDS, menusOf, type BotRole, type MenuScope } from '../../adapters/telegram/commands.js';

/** The commands ingest recognised before the registry (its `COMMANDS` list). */
const TODAYS_COMMANDS = [
  'stop',
  'start',
  'help',
  'new',
  'summary',
  'answerall',
  'link',
  'background',
  'agents',
  'agent',
  'room',
  'pause',
  'resume',
  'host',
  // SPEC §14: a person let in lets a group in.
  'allow',
];

/** Telegram's labels before the registry (adapters/telegram/commands.ts `LABELS`). */
const TODAYS_LABELS: Record<string, { en: string; zh: string }> = {
  start: { en: 'Start talking', zh: '开始聊天' },
  stop: { en: 'Stop the reply being written', zh: '停止正在生成的回复' },
  new: { en: 'Start a new conversation session', zh: '开始新的对话' },
  summary: { en: 'Summarise and continue from the summary', zh: '汇总对话并从摘要继续' },
  background: { en: 'See or switch the story’s background', zh: '查看或切换故事背景' },
  agents: { en: 'See whom you can talk to', zh: '查看可以聊天的角色' },
  agent: { en: 'Talk to someone else: /agent NAME', zh: '切换聊天角色：/agent 名字' },
  help: { en: 'What I can do', zh: '使用帮助' },
};

/** Telegram's menus before the registry (`MENUS`), in the order they were published. */
const TODAYS_MENUS: Record<BotRole, Array<[MenuScope, string[]]>> = {
  deployment: [
    ['default', ['start', 'stop', 'new', 'summary', 'background', 'help']],
    ['all_private_chats', ['start', 'stop', 'new', 'summary', 'background', 'agents', 'agent', 'help']],
  ],
  agent: [
    ['default', ['start', 'stop', 'new', 'summary', 'background', 'help']],
    ['all_group_chats', ['stop']],
  ],
};

/** What the old `menusOf` published for a bot: each scope, in English then Chinese. */
const todaysMenusOf = (role: BotRole) =>
  TODAYS_MENUS[role].flatMap(([scope, names]) =>
    (['en', 'zh'] as const).map((lang) => ({
      scope,
      lang,
      commands: names.map((command) => ({ command, description: TODAYS_LABELS[command]?.[lang] })),
    })),
  );

describe('the command registry', () => {
  it('declares the commands ingest recognised, each once', () => {
    expect([...COMMAND_NAMES].sort()).toEqual([...TODAYS_COMMANDS].sort());
    expect(new Set(COMMAND_NAMES).size).toBe(COMMAND_NAMES.length);
  });

  it('gives every command a gateway handler, and no handler to anything else', () => {
    for (const name of COMMAND_NAMES) expect(typeof COMMAND_HANDLERS[name], name).toBe('function');
    expect(Object.keys(COMMAND_HANDLERS).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('gives an ingest effect to exactly the commands declared to act at ingest', () => {
    const atIngest = COMMAND_NAMES.filter((name) => COMMANDS[name].atIngest === true);
    expect(Object.keys(INGEST_EFFECTS).sort()).toEqual([...atIngest].sort());
    expect(atIngest.sort()).toEqual(['answerall', 'new']);
  });

  it('labels every command in Chinese and English', () => {
    for (const name of COMMAND_NAMES) {
      expect(COMMANDS[name].label['zh-CN'].trim(), name).not.toBe('');
      expect(COMMANDS[name].label.en.trim(), name).not.toBe('');
    }
  });

  it('keeps the menu labels Telegram showed', () => {
    for (const [name, label] of Object.entries(TODAYS_LABELS)) {
      expect(isCommandName(name), name).toBe(true);
      if (isCommandName(name)) expect(COMMANDS[name].label).toEqual({ 'zh-CN': label.zh, en: label.en });
    }
  });

  it('treats an unknown "/word" as no command, own keys only', () => {
    for (const name of ['foo', 'constructor', 'tostring', 'hasownproperty', '__proto__', 'stopp'])
      expect(isCommandName(name), name).toBe(false);
  });

  it('refuses a command outside the chats it applies in', () => {
    const refusals = (name: CommandName) => [refusalFor(name, false), refusalFor(name, true)];
    expect(refusals('stop')).toEqual([undefined, undefined]);
    expect(refusals('link')).toEqual([undefined, 'LINK_PRIVATE_ONLY']);
    expect(refusals('agents')).toEqual([undefined, 'AGENT_PRIVATE_ONLY']);
    expect(refusals('agent')).toEqual([undefined, 'AGENT_PRIVATE_ONLY']);
    expect(refusals('answerall')).toEqual(['GROUPS_ONLY', undefined]);
  });

  it('parses each command’s arguments as its effect reads them', () => {
    expect(COMMANDS.agent.parse('@Mia')).toBe('Mia');
    expect(COMMANDS.agents.parse('whatever')).toBe('');
    expect(COMMANDS.answerall.parse('关')).toBe(false);
    expect(COMMANDS.answerall.parse('')).toBe(true);
    expect(COMMANDS.background.parse('2')).toEqual({ kind: 'pick', n: 2 });
    expect(COMMANDS.host.parse('@Mia')).toBe('@Mia');
  });
});

describe('the Telegram menus built from the registry', () => {
  it.each(['deployment', 'agent'] as const)('equal the menus the %s bot published before', (role) => {
    expect(menusOf(role)).toEqual(todaysMenusOf(role));
  });

  it('keep the default menu', () => {
    expect(BOT_COMMANDS.en.map((c) => c.command)).toEqual(['start', 'stop', 'new', 'summary', 'background', 'help']);
    expect(BOT_COMMANDS.zh.map((c) => c.description)).toEqual([
      '开始聊天',
      '停止正在生成的回复',
      '开始新的对话',
      '汇总对话并从摘要继续',
      '查看或切换故事背景',
      '使用帮助',
    ]);
  });
});
