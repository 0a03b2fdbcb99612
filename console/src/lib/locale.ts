// The console's language outside the component tree: which locale is in force, the operator's
// stored choice, and plain-function translation for modules that are not components (time.ts).
// The I18nProvider (i18n.tsx) owns switching; this module only holds the current value.
import { en, zhCN, type MessageKey } from '../i18n/messages.js';

export type Locale = 'zh-CN' | 'en';

const STORE_KEY = 'rainbow.console.locale';
const CATALOGUES: Record<Locale, Record<MessageKey, string>> = { en, 'zh-CN': zhCN };

/** The operator's stored pick, else the browser's first language (zh* → Chinese, else English). */
export function initialLocale(): Locale {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORE_KEY);
  } catch {
    // Storage blocked (private mode policies): fall back to the browser's languages.
  }
  if (stored === 'zh-CN' || stored === 'en') return stored;
  const first = navigator.languages?.[0] ?? navigator.language ?? 'en';
  return first.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

let current: Locale = initialLocale();

export const currentLocale = (): Locale => current;

/** The Intl locale for dates and numbers; English keeps the day-month order the console always had. */
export const intlLocale = (l: Locale = current): string => (l === 'zh-CN' ? 'zh-CN' : 'en-GB');

/** Makes `l` current: remembered when the operator picked it, and announced on <html lang>. */
export function applyLocale(l: Locale, remember: boolean): void {
  current = l;
  document.documentElement.lang = l;
  if (!remember) return;
  try {
    localStorage.setItem(STORE_KEY, l);
  } catch {
    // Not remembered across reloads; the switch still works for this tab.
  }
}

export function translate(key: MessageKey, vars?: Record<string, string | number>, l: Locale = current): string {
  const text = CATALOGUES[l][key] ?? en[key] ?? key;
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
