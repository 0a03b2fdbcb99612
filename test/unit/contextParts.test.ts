// The pure builders of the every-turn context (src/context/contextParts.ts, roomContext.ts): from
// plain data — no store, no network — they split the turn, derive the persona card and tone, build
// the prompt and apply the budget.
import { describe, expect, it } from 'vitest';
import { turnRecord } from '../support/records.js';
import {
  ADDRESSED_INSTRUCTION,
  agentNamesOf,
  budgetWarnings,
  builtContextOf,
  contextModeOf,
  gatheredOf,
  historySince,
  humanTextsOf,
  inputTextOf,
  instructionOf,
  isDirected,
  promptInputOf,
  splitTurn,
  type BuildEnv,
  type ContextReads,
} from '../../src/context/contextParts.js';
import { roomContextOf, type RoomMemberRead } from '../../src/context/roomContext.js';
import { PromptTooLongError } from '../../src/context/promptBudget.js';
import { defaultConfig } from '../../src/domain/config.js';
import type { Agent, Dialogue, Human, Message, Role, Session, Turn } from '../../src/domain/model.js';
import { freshPlot, type Background } from '../../src/domain/story.js';
import { TokenCounter } from '../../src/llm/tokens.js';
import type { EffectiveConfig } from '../../src/store/config.js';

const now = new Date('2026-02-01T10:00:00.000Z');
const counter = new TokenCounter();

/** A config with some preferences or limits changed from the defaults. */
function config(change: (c: EffectiveConfig['config']) => void = () => {}): EffectiveConfig {
  const c = defaultConfig();
  change(c);
  return { config: c, version: 1, ignored: [] };
}

let seq = 0;
function message(senderRole: Role, content: string, extra: Partial<Message> = {}): Message {
  seq += 1;
  return {
    _id: `m-${String(seq).padStart(4, '0')}`,
    dialogueId: 'd-1',
    sessionId: 's-1',
    turnId: 't-1',
    senderRole,
    senderId: senderRole === 'human' ? 'h-1' : 'a-1',
    contentType: 'text',
    content,
    mentions: [],
    visible: true,
    createdAt: new Date(now.getTime() + seq),
    updatedAt: now,
    ...extra,
  };
}

const agent = (id: string, name: string, extra: Partial<Agent> = {}): Agent => ({
  _id: id,
  name,
  basePersona: `You are ${name}.`,
  isDefault: false,
  createdAt: now,
  updatedAt: now,
  ...extra,
});

const human = (extra: Partial<Human> = {}): Human => ({
  _id: 'h-1',
  identities: [],
  displayName: 'Lin',
  createdAt: now,
  updatedAt: now,
  ...extra,
});

const turn = (extra: Partial<Turn> = {}): Turn => turnRecord({ startedAt: now, windowMs: 0 }, extra);

const dialogue = (extra: Partial<Dialogue> = {}): Dialogue => ({
  _id: 'd-1',
  type: 'human_ai',
  chat: { platform: 'web', chatId: 'c-1' },
  humanIds: ['h-1'],
  agentIds: ['a-1'],
  status: 'active',
  messageCount: 0,
  lastActivityAt: now,
  createdAt: now,
  updatedAt: now,
  ...extra,
});

const session = (extra: Partial<Session> = {}): Session => ({
  _id: 's-1',
  dialogueId: 'd-1',
  kind: 'dialogue',
  status: 'open',
  startedAt: now,
  lastActivityAt: now,
  stats: { messageCount: 0, turnCount: 1 },
  ...extra,
});

const bg: Background = {
  _id: 'bgd_1',
  name: 'Wasteland',
  worldSetting: '2087, fifty years after the war.',
  outline: [{ n: 1, text: 'Find the trail' }],
  createdAt: now,
  updatedAt: now,
};

/** Reads of a one-to-one chat with nothing optional found; `extra` fills in what a test needs. */
const reads = (extra: Partial<ContextReads> = {}): ContextReads => ({
  config: config(),
  agent: agent('a-1', 'Rainbow'),
  human: human(),
  humanId: 'h-1',
  mode: 'rolling',
  place: { dialogueId: 'd-1', private: true },
  seedMessages: [],
  visits: undefined,
  otherAgents: [],
  story: null,
  directed: false,
  previous: undefined,
  relationship: null,
  room: undefined,
  recalled: undefined,
  knowledge: undefined,
  directedContext: undefined,
  history: [],
  current: [message('human', 'hello there')],
  historyFrom: 'window',
  ...extra,
});

const env = (extra: Partial<BuildEnv> = {}): BuildEnv => ({
  turn: turn(),
  dialogue: dialogue(),
  session: session(),
  now,
  timezone: 'UTC',
  ...extra,
});

describe('the history mode', () => {
  it('reads since the rolling summary, or the whole session in load_all mode', () => {
    const summary = { text: 's', coversUntil: now, turnsFolded: 3, updatedAt: now };
    const rolling = contextModeOf(config());
    const all = contextModeOf(config((c) => (c.preferences.conversation_load_all = true)));
    expect([rolling, all]).toEqual(['rolling', 'load_all']);
    expect(historySince(rolling, session({ rollingSummary: summary }))).toBe(now);
    expect(historySince(all, session({ rollingSummary: summary }))).toBeUndefined();
    expect(historySince(rolling, session())).toBeUndefined();
  });

  it('directs only a dialogue with a story and the director on', () => {
    const story = { background: bg, plot: freshPlot('d-1', bg, now) };
    expect(isDirected(story, dialogue({ settings: { director: true } }))).toBe(true);
    expect(isDirected(story, dialogue())).toBe(false);
    expect(isDirected(null, dialogue({ settings: { director: true } }))).toBe(false);
  });
});

describe('splitting the turn', () => {
  it("takes the turn's human messages as input, the rest as history, and leaves the reply out", () => {
    const before = message('human', 'earlier', { turnId: 't-0' });
    const said = message('human', 'now', { turnId: 't-1' });
    const reply = message('ai', '', { _id: 'reply-1', turnId: 't-1' });
    const split = splitTurn([before, said, reply], turn(), 'reply-1');
    expect(split.input.map((m) => m.content)).toEqual(['now']);
    expect(split.history.map((m) => m.content)).toEqual(['earlier']);
  });

  it("answers a room's round from its first message on, other agents included", () => {
    const before = message('human', 'before', { turnId: 't-0' });
    const from = message('human', 'go', { turnId: 't-9' });
    const other = message('ai', 'I think so', { senderId: 'a-2', turnId: 't-9' });
    const asked = turn({ round: { roundId: 'r', fromMessageId: from._id, canSkip: true } });
    const split = splitTurn([before, from, other], asked, 'reply-1');
    expect(split.input.map((m) => m.content)).toEqual(['go', 'I think so']);
    expect(split.history.map((m) => m.content)).toEqual(['before']);
  });

  it('joins the input for recall and keeps only the turn’s human in a shared chat', () => {
    expect(inputTextOf([message('human', ' a '), message('human', 'b ')])).toBe('a \nb');
    expect(inputTextOf([])).toBe('');
    const texts = [message('human', 'mine'), message('human', 'theirs', { senderId: 'h-2' }), message('ai', 'ai')];
    expect(humanTextsOf(texts, 'h-1')).toEqual(['mine']);
    expect(humanTextsOf(texts, undefined)).toEqual(['mine', 'theirs']);
  });
});

describe('small parts', () => {
  it('closes with the caller’s instruction, and tells a mentioned agent it was addressed', () => {
    expect(instructionOf(turn(), undefined)).toBeUndefined();
    expect(instructionOf(turn(), 'Check in.')).toEqual({ instruction: 'Check in.' });
    const mentioned = turn({ round: { roundId: 'r', fromMessageId: 'm', canSkip: false } });
    expect(instructionOf(mentioned, 'Check in.')).toEqual({ instruction: `${ADDRESSED_INSTRUCTION}\nCheck in.` });
    const mayskip = turn({ round: { roundId: 'r', fromMessageId: 'm', canSkip: true } });
    expect(instructionOf(mayskip, undefined)).toBeUndefined();
  });

  it('names the other agents by id, and nothing in a one-agent chat', () => {
    expect(agentNamesOf([])).toBeUndefined();
    expect(agentNamesOf([agent('a-2', 'Sky')])).toEqual({ 'a-2': 'Sky' });
  });

  it('shows a room with every member, their introduction, and the speaker as you', () => {
    const room = { name: 'Lounge', description: 'Talk', announcement: { text: 'Be kind', by: 'h-1', at: now } };
    const members: RoomMemberRead[] = [
      { member: { kind: 'agent', id: 'a-1', joinedAt: now }, agent: agent('a-1', 'Rainbow'), human: null },
      {
        member: { kind: 'agent', id: 'a-2', joinedAt: now, introduction: 'I plan trips.' },
        agent: agent('a-2', 'Sky', { introduction: 'ignored' }),
        human: null,
      },
      {
        member: { kind: 'agent', id: 'a-3', joinedAt: now },
        agent: agent('a-3', 'Sun', { introduction: 'Hi' }),
        human: null,
      },
      { member: { kind: 'human', id: 'h-1', joinedAt: now }, agent: null, human: human() },
      { member: { kind: 'human', id: 'h-gone', joinedAt: now }, agent: null, human: null },
    ];
    expect(roomContextOf(room, members, 'a-1')).toEqual({
      name: 'Lounge',
      description: 'Talk',
      announcement: 'Be kind',
      members: [
        { name: 'Rainbow', kind: 'agent', you: true },
        { name: 'Sky', kind: 'agent', introduction: 'I plan trips.' },
        { name: 'Sun', kind: 'agent', introduction: 'Hi' },
        { name: 'Lin', kind: 'human' },
        { name: 'h-gone', kind: 'human' },
      ],
    });
  });
});

describe("the prompt's input", () => {
  it('carries the rolling summary only in rolling mode, and the relationship note when read', () => {
    const rollingSummary = { text: 'They met.', coversUntil: now, turnsFolded: 2, updatedAt: now };
    const e = env({ session: session({ rollingSummary }) });
    const note = { _id: 'r', agentId: 'a-1', humanId: 'h-1', text: 'Likes tea.' } as ContextReads['relationship'];
    const rolling = promptInputOf(reads({ relationship: note }), e).input;
    expect(rolling.rollingSummary).toBe('They met.');
    expect(rolling.relationship).toBe('Likes tea.');
    expect(rolling.selfId).toBe('a-1');
    expect(rolling.groupChat).toBe(false);
    expect(promptInputOf(reads({ mode: 'load_all' }), e).input.rollingSummary).toBeUndefined();
  });

  it('quotes the last topic only where it may be recalled, and counts visits', () => {
    const elsewhere = { text: 'the group trip', at: now, origin: { dialogueId: 'g-1', scope: 'group' as const } };
    const card = (place: ContextReads['place']) =>
      promptInputOf(reads({ place, visits: { count: 4, lastTopic: elsewhere } }), env()).input.personaCard;
    expect(card({ dialogueId: 'd-1', private: true })).toMatchObject({ visits: 4 });
    expect(card({ dialogueId: 'd-1', private: true })?.lastTopic).toBeUndefined();
    expect(card({ dialogueId: 'g-1', private: false })?.lastTopic).toBe('the group trip');
    expect(promptInputOf(reads({ human: null }), env()).input.personaCard).toBeUndefined();
  });

  it("reads the human's tone from this turn's messages", () => {
    const { tone } = promptInputOf(reads({ current: [message('human', "I'm so worried and anxious")] }), env());
    expect(tone.updatedAt).toEqual(now);
    const calm = promptInputOf(reads(), env()).tone;
    expect(tone).not.toEqual(calm);
  });

  it('adds the background, the director and the other agents when there are any', () => {
    const story = { background: bg, plot: freshPlot('d-1', bg, now) };
    const directedContext = { director: { outline: '1. [active] Find the trail', instruction: 'mark it' } };
    const input = promptInputOf(
      reads({ story, directed: true, directedContext, otherAgents: [agent('a-2', 'Sky')] }),
      env({ dialogue: dialogue({ type: 'group' }) }),
    ).input;
    expect(input.background).toBe(bg.worldSetting);
    expect(input.director).toEqual(directedContext.director);
    expect(input.agentNames).toEqual({ 'a-2': 'Sky' });
    expect(input.groupChat).toBe(true);
  });
});

describe('what a reply carries of its context', () => {
  it('keeps knowledge only when searched, the tone only with a human and input, and the story as directed', () => {
    const r = reads({
      knowledge: {
        sources: [],
        queries: [],
        searched: 0,
        timings: { indexMs: 0, embedMs: 0, searchMs: 0, totalMs: 0 },
      },
      story: { background: bg, plot: freshPlot('d-1', bg, now) },
      directed: true,
    });
    const { built, tone } = builtContextOf(r, env(), counter);
    const g = gatheredOf(r, { built, tone, gatherMs: 12 });
    expect(g.knowledge).toBeUndefined();
    expect(g.story?.directed).toBe(true);
    expect(g.userName).toBe('Lin');
    expect(g).toMatchObject({ mode: 'rolling', historyFrom: 'window', gatherMs: 12 });
    expect(g.tone).toMatchObject({ humanId: 'h-1', state: tone });
    expect(gatheredOf(reads({ current: [] }), { built, tone, gatherMs: 0 }).tone).toBeUndefined();
    expect(gatheredOf(reads({ humanId: undefined }), { built, tone, gatherMs: 0 }).tone).toBeUndefined();
  });
});

describe('the budget', () => {
  it('throws over the total limit, carrying what was built', () => {
    const r = reads({
      config: config((c) => {
        c.limits.max_total_tokens = 10;
      }),
    });
    const { built, tone } = builtContextOf(r, env(), counter);
    const g = gatheredOf(r, { built, tone, gatherMs: 0 });
    expect(() => budgetWarnings(g)).toThrow(PromptTooLongError);
  });

  it('warns about a long conversation in load_all mode only', () => {
    const long = Array.from({ length: 40 }, (_, i) => message('human', `line ${i} `.repeat(20), { turnId: 't-0' }));
    const limited = config((c) => {
      c.limits.conversation_max_tokens = 100;
    });
    const warnings = (mode: ContextReads['mode']) => {
      const r = reads({ config: limited, mode, history: long });
      const { built, tone } = builtContextOf(r, env(), counter);
      return budgetWarnings(gatheredOf(r, { built, tone, gatherMs: 0 })).map((w) => w.category);
    };
    expect(warnings('load_all')).toContain('conversation_over_limit');
    expect(warnings('rolling')).not.toContain('conversation_over_limit');
  });
});
