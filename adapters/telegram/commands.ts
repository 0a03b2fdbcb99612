// The command menu Telegram shows users (setMyCommands), in English and Chinese. What the
// commands do is decided in the core; this is only their label in Telegram's UI.
import type { BotCommand } from 'grammy/types';

export const BOT_COMMANDS: Record<'en' | 'zh', BotCommand[]> = {
  en: [
    { command: 'start', description: 'Start talking' },
    { command: 'stop', description: 'Stop the reply being written' },
    { command: 'new', description: 'Start a new conversation session' },
    { command: 'summary', description: 'Summarise and continue from the summary' },
    { command: 'background', description: 'See or switch the story’s background' },
    { command: 'help', description: 'What I can do' },
  ],
  zh: [
    { command: 'start', description: '开始聊天' },
    { command: 'stop', description: '停止正在生成的回复' },
    { command: 'new', description: '开始新的对话' },
    { command: 'summary', description: '汇总对话并从摘要继续' },
    { command: 'background', description: '查看或切换故事背景' },
    { command: 'help', description: '使用帮助' },
  ],
};
