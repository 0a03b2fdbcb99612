// The command menus Telegram shows users (setMyCommands), in English and Chinese. What the
// commands do is decided in the core; this is only their label in Telegram's UI. Each bot shows
// what makes sense where it is: the deployment's bot lets a private chat choose its agent; an
// agent's own bot talks as that agent only, and in a group only stops itself.
import type { BotCommand } from 'grammy/types';

type Lang = 'en' | 'zh';
type Labelled = Record<Lang, string>;

const LABELS = {
  start: { en: 'Start talking', zh: '开始聊天' },
  stop: { en: 'Stop the reply being written', zh: '停止正在生成的回复' },
  new: { en: 'Start a new conversation session', zh: '开始新的对话' },
  summary: { en: 'Summarise and continue from the summary', zh: '汇总对话并从摘要继续' },
  background: { en: 'See or switch the story’s background', zh: '查看或切换故事背景' },
  agents: { en: 'See whom you can talk to', zh: '查看可以聊天的角色' },
  agent: { en: 'Talk to someone else: /agent NAME', zh: '切换聊天角色：/agent 名字' },
  help: { en: 'What I can do', zh: '使用帮助' },
} satisfies Record<string, Labelled>;

type Command = keyof typeof LABELS;

/** Which bot a menu is for. */
export type BotRole = 'deployment' | 'agent';

/** Where a menu applies (Telegram's BotCommandScope types we use). */
export type MenuScope = 'default' | 'all_private_chats' | 'all_group_chats';

const MENUS: Record<BotRole, Partial<Record<MenuScope, Command[]>>> = {
  deployment: {
    default: ['start', 'stop', 'new', 'summary', 'background', 'help'],
    all_private_chats: ['start', 'stop', 'new', 'summary', 'background', 'agents', 'agent', 'help'],
  },
  agent: {
    default: ['start', 'stop', 'new', 'summary', 'background', 'help'],
    // In a room the deployment's bot answers for the room; an agent's bot only stops itself.
    all_group_chats: ['stop'],
  },
};

/** The menus one bot publishes: scope → language → commands. */
export function menusOf(role: BotRole): Array<{ scope: MenuScope; lang: Lang; commands: BotCommand[] }> {
  return Object.entries(MENUS[role]).flatMap(([scope, names]) =>
    (['en', 'zh'] as const).map((lang) => ({
      scope: scope as MenuScope,
      lang,
      commands: names.map((command) => ({ command, description: LABELS[command][lang] })),
    })),
  );
}

/** The deployment bot's default menu (what most chats show). */
export const BOT_COMMANDS: Record<Lang, BotCommand[]> = {
  en: menusOf('deployment').find((m) => m.scope === 'default' && m.lang === 'en')?.commands ?? [],
  zh: menusOf('deployment').find((m) => m.scope === 'default' && m.lang === 'zh')?.commands ?? [],
};
