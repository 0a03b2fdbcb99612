// The command menus Telegram shows users (setMyCommands), in English and Chinese, built from the
// command registry (src/domain/commandRegistry.ts: which menus list a command, and its label);
// what the commands do is decided in the core. Each bot shows
// what makes sense where it is: the deployment's bot lets a private chat choose its agent; an
// agent's own bot talks as that agent only, and in a group only stops itself.
import type { BotCommand } from 'grammy/types';
import { COMMANDS, commandsIn, type BotRole, type MenuSlot } from '../../src/domain/commandRegistry.js';
import type { Locale } from '../../src/i18n/texts.js';

type Lang = 'en' | 'zh';

/** Which bot a menu is for. */
export type { BotRole } from '../../src/domain/commandRegistry.js';

/** Where a menu applies (Telegram's BotCommandScope types we use). */
export type MenuScope = 'default' | 'all_private_chats' | 'all_group_chats';

/** Why a table: the registry's menu slots in Telegram's terms, in the order the menus are published. */
const SCOPES: ReadonlyArray<{ scope: MenuScope; slot: (role: BotRole) => MenuSlot }> = [
  { scope: 'default', slot: (role) => role },
  { scope: 'all_private_chats', slot: (role) => `${role}:private` },
  { scope: 'all_group_chats', slot: (role) => `${role}:group` },
];

/** Why a map: Telegram's language_code is ISO 639-1, the registry's labels are by locale. */
const LOCALE_OF: Record<Lang, Locale> = { en: 'en', zh: 'zh-CN' };

/** The menus one bot publishes, built from the command registry: scope → language → commands. */
export function menusOf(role: BotRole): Array<{ scope: MenuScope; lang: Lang; commands: BotCommand[] }> {
  return SCOPES.flatMap(({ scope, slot }) => {
    const names = commandsIn(slot(role));
    if (names.length === 0) return [];
    return (['en', 'zh'] as const).map((lang) => ({
      scope,
      lang,
      commands: names.map((command) => ({ command, description: COMMANDS[command].label[LOCALE_OF[lang]] })),
    }));
  });
}

/** The deployment bot's default menu (what most chats show). */
export const BOT_COMMANDS: Record<Lang, BotCommand[]> = {
  en: menusOf('deployment').find((m) => m.scope === 'default' && m.lang === 'en')?.commands ?? [],
  zh: menusOf('deployment').find((m) => m.scope === 'default' && m.lang === 'zh')?.commands ?? [],
};
