// The prompt for one turn, rebuilt from scratch every turn (SPEC §5, seeds 001 and 003). Order,
// stable prefix first so provider prompt caching works: gateway rules → base persona → evolved
// persona → background → story outline and progress instruction, as ONE system message whose
// text never carries the clock; then the dynamic parts, each its own system message with a short
// header (time, director reminder, memories, knowledge passages, the previous session carried
// over the gap, summary, user persona card, tone guidance); then
// the raw history and the turn's own input; then an optional closing instruction. Pure: the
// caller fetches everything (src/context/gatherContext.ts) and checks the budget.
import { isOperatorPost, isShownToAgents } from '../domain/conversation.js';
import { createHash } from 'node:crypto';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Agent, MemoryKind, Message, SummaryOrder } from '../domain/model.js';
import { renderPersonaCard, type UserPersonaCard } from '../persona/userPersonaCard.js';
import { promptLanguage } from '../persona/communicationStyle.js';
import type { PromptLanguage, ToneGuidance } from '../tone/templates.js';
import { middleSectionWarning, type PromptLimits, type PromptWarning } from './promptBudget.js';
import { isOwnMessage, renderMessage, type RenderOptions } from '../transcript/renderMessage.js';
import { REPLY_PRIMING_TOKENS, type TokenCounter } from '../llm/tokens.js';
import { carryOverEnd, carryOverIntro, type CarryOver } from './carryOver.js';

export interface RecalledMemory {
  kind: MemoryKind;
  text: string;
  occurredAt: Date;
}

/** A passage of the agent's documents, numbered as the reply may cite it (src/knowledge/retrieval.ts). */
export interface KnowledgePassage {
  n: number;
  documentName: string;
  heading?: string;
  content: string;
}

export interface DirectorContext {
  /** The story outline with its statuses, as text. */
  outline?: string;
  /** How to report progress ([PROGRESS:n:status]); stable between turns. */
  instruction?: string;
  /** Seed 001's fallback reminder after several turns without progress. */
  fallbackReminder?: string;
}

/** A session opened by the summarise action: its predecessor's summary and last turns. */
export interface ContextSeed {
  summary: string;
  messages: Message[];
  order: SummaryOrder;
}

/** A room as its agents know it (seed 002): what it is for, its announcement, who is in it. */
export interface RoomContext {
  name: string;
  description?: string;
  announcement?: string;
  /** Its members, the speaking agent among them (`you`), each with the introduction they gave. */
  members: Array<{ name: string; kind: 'agent' | 'human'; introduction?: string; you?: boolean }>;
}

export interface ContextInput {
  agent: Pick<Agent, 'name' | 'basePersona' | 'evolvedPersona' | 'inner'>;
  /** The room the chat is, when it is one. */
  room?: RoomContext;
  /** Gateway rules that come before the persona. */
  systemPrompt?: string;
  /** Background / world setting. */
  background?: string;
  director?: DirectorContext;
  recalled: RecalledMemory[];
  /** Retrieved passages of the agent's documents, numbered [1]..[k]; none → no knowledge part. */
  knowledge?: readonly KnowledgePassage[];
  /** The session's rolling summary text (messages before its coversUntil). */
  rollingSummary?: string;
  seed?: ContextSeed;
  /** The end of the dialogue's previous session, when this one opened after the gap. */
  carryOver?: CarryOver;
  personaCard?: UserPersonaCard;
  /** The agent's note on this person (their private chats only). */
  relationship?: string;
  tone?: ToneGuidance;
  /** Raw messages before the turn, oldest first. */
  history: Message[];
  /** The turn's own input. */
  current: Message[];
  now: Date;
  /** Display timezone of the time line (storage stays UTC). */
  timezone: string;
  groupChat: boolean;
  /** The answering agent: the viewpoint the conversation is rendered from (absent: a one-agent chat). */
  selfId?: string;
  /** The other agents of the chat by id, named in what they said. */
  agentNames?: Readonly<Record<string, string>>;
  /** A closing system line for this generation only (e.g. a proactive check-in). */
  instruction?: string;
  /** Language of the persona card; by default the user's recent writing decides. */
  lang?: PromptLanguage;
}

export const PART_NAMES = [
  'prefix',
  'clock',
  'reminder',
  'memories',
  'knowledge',
  'previous',
  'summary',
  'personaCard',
  'tone',
  'history',
  'current',
  'instruction',
] as const;
export type PartName = (typeof PART_NAMES)[number];
/** Seed 001's middle section: director reminder, recalled memories and passages, the previous session, summary/seed and the raw history. */
export const MIDDLE_PARTS: readonly PartName[] = [
  'reminder',
  'memories',
  'knowledge',
  'previous',
  'summary',
  'history',
];

export interface PartSize {
  tokens: number;
  chars: number;
}

export interface BuiltContext {
  messages: ChatCompletionMessageParam[];
  parts: Record<PartName, PartSize>;
  /** Input tokens as the provider counts them (chat overhead and reply priming included). */
  totalTokens: number;
  middleTokens: number;
  /** sha256 of the whole prompt, 16 hex: two builds compare at a glance. */
  hash: string;
  /** sha256 of the stable prefix: unchanged between turns unless persona/background/director change. */
  prefixHash: string;
  /** Middle section over its threshold (never truncated). The total limit is the caller's check. */
  warning?: PromptWarning;
}

export const HEADERS = {
  evolved: '[How you have grown]',
  inner: '[Your inner state]',
  room: '[This room]',
  background: '[Background]',
  outline: '[Story outline]',
  progress: '[Progress instruction]',
  reminder: '[Director reminder]',
  memories: '[Memories]',
  knowledge: '[Knowledge]',
  previous: '[Previous conversation]',
  seedSummary: '[Summary of the previous session]',
  summary: '[Summary of earlier conversation]',
  personaCard: '[About the user]',
  relationship: '[Your relationship with this person]',
  tone: '[Tone guidance]',
} as const;

const sha16 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);
const section = (header: string, body: string | undefined) => (body?.trim() ? `${header}\n${body.trim()}` : '');

/**
 * Stored messages as chat messages, from the speaking agent's viewpoint: what was said, and the
 * operator's posts (src/domain/conversation.ts); its own messages are the assistant's, everyone
 * else's — humans and other agents, by name — are the user side's. An operator's post is a
 * system message with its mark: a person can type "[Operator]" into the chat, but never a
 * system message.
 */
export function renderConversation(messages: readonly Message[], o: RenderOptions): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  for (const m of messages) {
    if (!isShownToAgents(m)) continue;
    const role = isOperatorPost(m) ? 'system' : isOwnMessage(m, o) ? 'assistant' : 'user';
    out.push({ role, content: renderMessage(m, o) });
  }
  return out;
}

/** The stable prefix: nothing in it changes from turn to turn (no clock, no memories). */
export function stablePrefix(
  input: Pick<ContextInput, 'agent' | 'systemPrompt' | 'background' | 'director' | 'groupChat' | 'agentNames' | 'room'>,
): string {
  const others = Object.values(input.agentNames ?? {});
  const rules = [
    input.systemPrompt?.trim() ?? '',
    input.groupChat
      ? `You are ${input.agent.name} in a group chat with several people; each of their messages starts with the sender's name. Answer the person who addressed you.`
      : '',
    others.length > 0
      ? `Other AIs share this chat (${others.join(', ')}); their messages start with their name. Speak only as ${input.agent.name}.`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
  return [
    rules,
    input.agent.basePersona.trim(),
    section(HEADERS.evolved, input.agent.evolvedPersona),
    section(HEADERS.inner, input.agent.inner ? innerText(input.agent.inner) : undefined),
    section(HEADERS.room, input.room ? roomText(input.room) : undefined),
    section(HEADERS.background, input.background),
    section(HEADERS.outline, input.director?.outline),
    section(HEADERS.progress, input.director?.instruction),
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** The room: its name and purpose, the announcement everyone was shown, and its members. */
export function roomText(room: RoomContext): string {
  const member = (m: RoomContext['members'][number]) =>
    `- ${m.name}${m.you ? ' (you)' : m.kind === 'agent' ? ' (an AI)' : ''}${m.introduction?.trim() ? `: ${m.introduction.trim()}` : ''}`;
  return [
    `${room.name}${room.description?.trim() ? ` — ${room.description.trim()}` : ''}`,
    room.announcement?.trim() ? `Announcement: ${room.announcement.trim()}` : '',
    room.members.length > 0 ? `Members:\n${room.members.map(member).join('\n')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The mood and values a self-reflection left, as guidance that colours replies without being named. */
export function innerText(inner: NonNullable<Agent['inner']>): string {
  const values = Object.entries(inner.values)
    .sort(([, a], [, b]) => b - a)
    .map(([name, w]) => `${name} ${w.toFixed(1)}`)
    .join(', ');
  return [
    `Mood: ${inner.mood.label}.`,
    values ? `What you value most (0–1): ${values}.` : '',
    'Let these colour how you answer; do not talk about them unless asked.',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Formatters are costly to build (a fraction of a millisecond each) and used on every turn. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions & { timeZone: string }): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

export function clockLine(now: Date, timeZone: string): string {
  const when = dateFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(now);
  const weekday = dateFormat('en-US', { timeZone, weekday: 'long' }).format(now);
  return `Current time: ${when} (${timeZone}), ${weekday}`;
}

const DAY = 86_400_000;

function ago(then: Date, now: Date, timeZone: string): string {
  const day = (d: Date) => Date.parse(`${dateFormat('sv-SE', { timeZone, dateStyle: 'short' }).format(d)}T00:00:00Z`);
  const days = Math.round((day(now) - day(then)) / DAY);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days < 14) return `${days} days ago`;
  if (days < 60) return `${Math.round(days / 7)} weeks ago`;
  if (days < 730) return `${Math.round(days / 30)} months ago`;
  return `${Math.round(days / 365)} years ago`;
}

/** One line per memory with when it happened, so the model can say "three days ago you said…". */
export function renderMemories(recalled: readonly RecalledMemory[], now: Date, timeZone: string): string {
  const date = dateFormat('sv-SE', { timeZone, dateStyle: 'short' });
  return recalled
    .filter((m) => m.text.trim())
    .map(
      (m) =>
        `- ${date.format(m.occurredAt)} (${ago(m.occurredAt, now, timeZone)}, ${m.kind}): ${m.text.trim().replace(/\s*\n\s*/g, ' ')}`,
    )
    .join('\n');
}

/** How the model is asked to cite (the citation stage drops any other number from what is shown). */
export const CITE_INSTRUCTION =
  'Passages from your documents that may help with this turn. When a statement relies on one, cite it right after the statement as [n] with its number. Cite only these numbers, never anything else; without a relevant passage, answer without citations.';

/** The numbered passages, each under its document's name (and heading). */
export function renderKnowledge(passages: readonly KnowledgePassage[]): string {
  if (passages.length === 0) return '';
  const body = passages
    .map((p) => `[${p.n}] ${p.documentName}${p.heading ? ` — ${p.heading}` : ''}\n${p.content.trim()}`)
    .join('\n\n');
  return `${CITE_INSTRUCTION}\n\n${body}`;
}

const system = (content: string): ChatCompletionMessageParam[] => (content ? [{ role: 'system', content }] : []);

/**
 * The prompt; when it is over `maxTotalTokens` and carries the previous session, the oldest carried
 * messages give way first (carry-over is a courtesy, never the reason a turn fails).
 */
export function buildContext(input: ContextInput, limits: PromptLimits, counter: TokenCounter): BuiltContext {
  let built = buildOnce(input, limits, counter);
  let carried = input.carryOver;
  while (carried && carried.messages.length > 0 && built.totalTokens > limits.maxTotalTokens) {
    carried = { ...carried, messages: carried.messages.slice(1) };
    built = buildOnce({ ...input, carryOver: carried }, limits, counter);
  }
  return built;
}

function previousPart(input: ContextInput, render: RenderOptions, lang: PromptLanguage): ChatCompletionMessageParam[] {
  const c = input.carryOver;
  if (!c) return [];
  const turns = renderConversation(c.messages, render);
  return [
    ...system(section(HEADERS.previous, carryOverIntro(c, input.now, input.timezone, lang))),
    ...turns,
    ...(turns.length > 0 ? system(carryOverEnd(lang)) : []),
  ];
}

function buildOnce(input: ContextInput, limits: PromptLimits, counter: TokenCounter): BuiltContext {
  const prefix = stablePrefix(input);
  const humanTexts = [...input.history, ...input.current]
    .filter((m) => m.senderRole === 'human')
    .map((m) => m.content)
    .slice(-10);
  const lang = input.lang ?? promptLanguage(humanTexts);
  const render: RenderOptions = {
    groupChat: input.groupChat,
    agentName: input.agent.name,
    ...(input.selfId ? { selfId: input.selfId } : {}),
    ...(input.agentNames ? { agentNames: input.agentNames } : {}),
    lang,
  };

  const summary: ChatCompletionMessageParam[] = [];
  if (input.seed) {
    const seedSummary = system(section(HEADERS.seedSummary, input.seed.summary));
    const seedTurns = renderConversation(input.seed.messages, render);
    summary.push(
      ...(input.seed.order === 'summary_first' ? [...seedSummary, ...seedTurns] : [...seedTurns, ...seedSummary]),
    );
  }
  summary.push(...system(section(HEADERS.summary, input.rollingSummary)));

  const sections: Array<[PartName, ChatCompletionMessageParam[]]> = [
    ['prefix', system(prefix)],
    ['clock', system(clockLine(input.now, input.timezone))],
    ['reminder', system(section(HEADERS.reminder, input.director?.fallbackReminder))],
    ['memories', system(section(HEADERS.memories, renderMemories(input.recalled, input.now, input.timezone)))],
    ['knowledge', system(section(HEADERS.knowledge, renderKnowledge(input.knowledge ?? [])))],
    ['previous', previousPart(input, render, lang)],
    ['summary', summary],
    [
      'personaCard',
      [
        ...system(input.personaCard ? section(HEADERS.personaCard, renderPersonaCard(input.personaCard, lang)) : ''),
        ...system(section(HEADERS.relationship, input.relationship)),
      ],
    ],
    ['tone', system(section(HEADERS.tone, input.tone?.text))],
    ['history', renderConversation(input.history, render)],
    ['current', renderConversation(input.current, render)],
    ['instruction', system(input.instruction?.trim() ?? '')],
  ];

  const parts = Object.fromEntries(PART_NAMES.map((p) => [p, { tokens: 0, chars: 0 }])) as Record<PartName, PartSize>;
  const messages: ChatCompletionMessageParam[] = [];
  for (const [name, ms] of sections) {
    for (const m of ms) {
      parts[name].tokens += counter.countMessage(m);
      parts[name].chars += typeof m.content === 'string' ? m.content.length : 0;
      messages.push(m);
    }
  }
  const totalTokens = PART_NAMES.reduce((n, p) => n + parts[p].tokens, REPLY_PRIMING_TOKENS);
  const middleTokens = MIDDLE_PARTS.reduce((n, p) => n + parts[p].tokens, 0);
  const warning = middleSectionWarning(middleTokens, limits);
  return {
    messages,
    parts,
    totalTokens,
    middleTokens,
    hash: sha16(JSON.stringify(messages)),
    prefixHash: sha16(prefix),
    ...(warning ? { warning } : {}),
  };
}
