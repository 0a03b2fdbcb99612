// The pure placement of an inbound message (src/ingest/placement.ts): each kind it decides, and
// the documents it carries for the writer, from plain data alone — no store, no queue.
import { describe, expect, it } from 'vitest';
import { turnRecord } from '../support/records.js';
import { decidePlacement, type Placement, type PlacementInput } from '../../src/ingest/placement.js';
import { inboundMessage } from '../../src/ingest/inboundMessage.js';
import { newMessageSchema, type InboundMessage } from '../../src/ingest/inboundEvent.js';
import type { Activation } from '../../src/domain/activation.js';
import type { Agent, Turn } from '../../src/domain/model.js';
import type { Room } from '../../src/domain/room.js';
import type { RoomView } from '../../src/ingest/roomIngest.js';

const now = new Date('2024-05-01T10:00:00.000Z');
const WINDOW = 3 * 60 * 60 * 1000;
const ADDRESSED: Activation = { answer: true, why: 'private' };
const UNADDRESSED: Activation = { answer: false, why: 'not_addressed' };

/** An inbound message as an adapter sends it (through the schema, as ingest receives it). */
function event(o: {
  text?: string;
  kind?: 'private' | 'group';
  isBot?: boolean;
  userId?: string;
  answerable?: boolean;
}) {
  return newMessageSchema.parse({
    platform: 'telegram',
    chat: { chatId: 'c-1', kind: o.kind ?? 'private' },
    platformMessageId: '42',
    sender: { userId: o.userId ?? 'u-1', isBot: o.isBot ?? false, displayName: 'Ann' },
    ...(o.text === undefined ? {} : { text: o.text }),
    sentAt: now,
    ...(o.answerable === undefined ? {} : { answerable: o.answerable }),
  });
}

const turn = (overrides: Partial<Turn> = {}): Turn =>
  turnRecord({ startedAt: new Date(now.getTime() - 1000), windowMs: WINDOW }, { _id: 't-open', ...overrides });

function input(ev: InboundMessage, o: Partial<PlacementInput> = {}): PlacementInput {
  const message = inboundMessage(ev, {
    messageId: 'm-1',
    dialogueId: 'd-1',
    sessionId: 's-1',
    humanId: 'h-1',
    quote: undefined,
    now,
  });
  return {
    ev,
    message,
    dialogue: { _id: 'd-1' },
    session: { _id: 's-1' },
    sessionOpened: false,
    latestTurn: null,
    command: undefined,
    agentId: 'a-1',
    activation: ADDRESSED,
    room: null,
    newTurnId: 't-new',
    responseWindowMs: WINDOW,
    gate: { pass: true },
    now,
    ...o,
  };
}

/** The placement, narrowed to the kind the test expects. */
function placed<K extends Placement['kind']>(p: Placement, kind: K): Extract<Placement, { kind: K }> {
  expect(p.kind).toBe(kind);
  return p as Extract<Placement, { kind: K }>;
}

describe('decidePlacement: commands', () => {
  it('records a known command outside any turn, never answered', () => {
    const ev = event({ text: '/new', kind: 'group' });
    const p = placed(decidePlacement(input(ev, { command: { name: 'new', args: '' } })), 'command');
    expect(p).toMatchObject({ name: 'new', args: '', groupChat: true });
    expect(p.message).toMatchObject({ _id: 'm-1', contentType: 'command', content: '/new' });
    expect(p.message.turnId).toBeUndefined();
  });

  it('treats a bot\'s or an unanswerable "command" as ordinary text', () => {
    const fromBot = decidePlacement(
      input(event({ text: '/new', isBot: true }), { command: { name: 'new', args: '' }, activation: UNADDRESSED }),
    );
    expect(fromBot.kind).toBe('context_only');
    const guest = decidePlacement(
      input(event({ text: '/new', answerable: false }), { command: { name: 'new', args: '' } }),
    );
    expect(guest.kind).toBe('context_only');
  });
});

describe('decidePlacement: outside any turn', () => {
  it('keeps a message nobody addressed as context', () => {
    const p = placed(
      decidePlacement(input(event({ text: 'hi all', kind: 'group' }), { activation: UNADDRESSED })),
      'context_only',
    );
    expect(p.message).toMatchObject({ content: 'hi all' });
    expect(p.message.turnId).toBeUndefined();
    expect(p.message.rejected).toBeUndefined();
  });

  it('keeps an addressed message that cannot be answered (a guest query) as context', () => {
    expect(decidePlacement(input(event({ text: 'hi', answerable: false }))).kind).toBe('context_only');
  });

  it('marks refused content nobody asked for, silently', () => {
    const p = placed(
      decidePlacement(input(event({ text: '   ', kind: 'group' }), { activation: UNADDRESSED })),
      'context_only',
    );
    expect(p.message.rejected).toEqual({ code: 'MESSAGE_CONTENT_REQUIRED' });
  });

  it('refuses addressed input that breaks BR-001, opening no turn', () => {
    const p = placed(decidePlacement(input(event({ text: 'x'.repeat(10_001) }))), 'rejected');
    expect(p.code).toBe('MESSAGE_TOO_LONG');
    expect(p.message.rejected).toEqual({ code: 'MESSAGE_TOO_LONG' });
    expect(p.message.turnId).toBeUndefined();
  });
});

describe('decidePlacement: turns', () => {
  it('opens a turn for the agent to answer, titling an untitled dialogue', () => {
    const p = placed(decidePlacement(input(event({ text: '  hello there ' }))), 'turn');
    expect(p.opens).toMatchObject({
      _id: 't-new',
      dialogueId: 'd-1',
      sessionId: 's-1',
      initiatorRole: 'human',
      initiatorId: 'h-1',
      responderRole: 'ai',
      responderId: 'a-1',
      startedAt: now,
      deadlineAt: new Date(now.getTime() + WINDOW),
      status: 'pending',
    });
    expect(p.message).toMatchObject({ turnId: 't-new', content: 'hello there' });
    expect(p.title).toBe('hello there');
    expect(p.closes).toBeUndefined();
  });

  it('gives no title to a dialogue that has one', () => {
    const p = placed(
      decidePlacement(input(event({ text: 'hello' }), { dialogue: { _id: 'd-1', title: 'Old' } })),
      'turn',
    );
    expect(p.title).toBeUndefined();
  });

  it("joins the person's open turn while its reply has not started", () => {
    const p = placed(decidePlacement(input(event({ text: 'and more' }), { latestTurn: turn() })), 'turn');
    expect(p.opens).toBeUndefined();
    expect(p.message.turnId).toBe('t-open');
  });

  it('opens the next turn, after the open one, once its reply has started', () => {
    const started = turn({ replyStartedAt: now });
    const p = placed(decidePlacement(input(event({ text: 'more' }), { latestTurn: started })), 'turn');
    expect(p.opens).toMatchObject({ _id: 't-new', after: 't-open' });
    expect(p.message.turnId).toBe('t-new');
  });

  it("closes the AI's open turn it answers, and opens its own", () => {
    const checkIn = turn({ initiatorRole: 'ai', initiatorId: 'a-1', responderRole: 'human', responderId: 'h-1' });
    const p = placed(decidePlacement(input(event({ text: 'yes' }), { latestTurn: checkIn })), 'turn');
    expect(p.closes).toBe(checkIn);
    expect(p.opens?._id).toBe('t-new');
  });

  it('never joins a turn of another session, nor one when this message opened the session', () => {
    const other = placed(
      decidePlacement(input(event({ text: 'hi' }), { latestTurn: turn({ sessionId: 's-0' }) })),
      'turn',
    );
    expect(other.opens?._id).toBe('t-new');
    const fresh = placed(
      decidePlacement(input(event({ text: 'hi' }), { latestTurn: turn(), sessionOpened: true })),
      'turn',
    );
    expect(fresh.opens?._id).toBe('t-new');
  });
});

describe('decidePlacement: rooms', () => {
  const agent = (id: string, name: string, userId: string): Agent => ({
    _id: id,
    name,
    bindings: [{ platform: 'telegram', userId }],
    basePersona: '',
    isDefault: false,
    createdAt: now,
    updatedAt: now,
  });
  const room = (status: Room['status'] = 'active'): RoomView => ({
    room: {
      _id: 'r-1',
      dialogueId: 'd-1',
      chat: { platform: 'telegram', chatId: 'c-1' },
      name: 'Room',
      mode: 'default',
      userParticipation: true,
      status,
      members: [
        { kind: 'agent', id: 'a-1', joinedAt: now },
        { kind: 'agent', id: 'a-2', joinedAt: now },
      ],
      roundSeq: 0,
      createdAt: now,
      updatedAt: now,
    },
    agents: [agent('a-1', 'Iris', 'bot-1'), agent('a-2', 'Juno', 'bot-2')],
  });
  const ask = (o: Partial<Turn> = {}) =>
    turn({ round: { roundId: 'rd-1', fromMessageId: 'm-0', canSkip: false }, ...o });

  it("ignores one of the room's own agents coming back", () => {
    const ev = event({ text: 'my answer', isBot: true, userId: 'bot-2', kind: 'group' });
    expect(decidePlacement(input(ev, { room: room() })).kind).toBe('own_echo');
  });

  it("keeps a paused room's message, or another bot's, as context", () => {
    expect(decidePlacement(input(event({ text: 'hi', kind: 'group' }), { room: room('paused') })).kind).toBe(
      'context_only',
    );
    const otherBot = event({ text: 'hi', isBot: true, userId: 'bot-9', kind: 'group' });
    expect(decidePlacement(input(otherBot, { room: room() })).kind).toBe('context_only');
  });

  it('refuses empty input to an active room', () => {
    expect(decidePlacement(input(event({ text: ' ', kind: 'group' }), { room: room() })).kind).toBe('rejected');
  });

  it('starts a round, asking the agents the message names', () => {
    const p = placed(
      decidePlacement(input(event({ text: '@Juno what do you think?', kind: 'group' }), { room: room() })),
      'room',
    );
    expect(p.mentions).toEqual(['a-2']);
    expect(p.room._id).toBe('r-1');
    expect(p.message.turnId).toBeUndefined();
    expect(p.message.content).toBe('@Juno what do you think?');
  });

  it("joins the person's ask while its agent has not started answering, naming nobody new", () => {
    const p = placed(
      decidePlacement(input(event({ text: 'also this', kind: 'group' }), { room: room(), latestTurn: ask() })),
      'turn',
    );
    expect(p.message.turnId).toBe('t-open');
    expect(p.opens).toBeUndefined();
    const started = decidePlacement(
      input(event({ text: 'also this', kind: 'group' }), { room: room(), latestTurn: ask({ replyStartedAt: now }) }),
    );
    expect(started.kind).toBe('room');
  });
});

describe('decidePlacement: senders SPEC §14 refuses', () => {
  const notAdmitted = { pass: false, reason: 'not_admitted', code: 'ACCESS_DENIED', scope: 'all' } as const;
  const spent = {
    pass: false,
    reason: 'budget',
    code: 'BUDGET_EXCEEDED',
    scope: 'answer',
    spent: { cap: 'person', resetAt: new Date('2024-05-02T00:00:00Z') },
  } as const;

  it('refuses a stranger who addresses the agent, marked, outside any turn; let in, the same message opens a turn', () => {
    const ev = event({ text: 'hello' });
    const p = placed(decidePlacement(input(ev, { gate: notAdmitted })), 'refused');
    expect(p.message.rejected).toEqual({ code: 'ACCESS_DENIED', reason: 'not_admitted' });
    expect(p.message.turnId).toBeUndefined();
    expect(p.addressed).toBe(true);
    // Positive control: the gate is what refused it.
    placed(decidePlacement(input(ev)), 'turn');
  });

  it("refuses a stranger's group context silently, so none of it reaches a prompt", () => {
    const ev = event({ text: 'chatting', kind: 'group' });
    const p = placed(decidePlacement(input(ev, { gate: notAdmitted, activation: UNADDRESSED })), 'refused');
    expect(p.addressed).toBe(false);
    placed(decidePlacement(input(ev, { activation: UNADDRESSED })), 'context_only');
  });

  it('never tells a sender under access.refusal: silent', () => {
    const p = placed(
      decidePlacement(input(event({ text: 'hi' }), { gate: { ...notAdmitted, silent: true } })),
      'refused',
    );
    expect(p.addressed).toBe(false);
  });

  it('lets a stranger knock with /start CODE, and nothing else', () => {
    const start = placed(
      decidePlacement(
        input(event({ text: '/start abc' }), { gate: notAdmitted, command: { name: 'start', args: 'abc' } }),
      ),
      'command',
    );
    expect(start.admitted).toBe(false);
    placed(
      decidePlacement(
        input(event({ text: '/summary' }), { gate: notAdmitted, command: { name: 'summary', args: '' } }),
      ),
      'refused',
    );
    const blocked = { ...notAdmitted, reason: 'blocked' } as const;
    placed(
      decidePlacement(input(event({ text: '/start abc' }), { gate: blocked, command: { name: 'start', args: 'abc' } })),
      'refused',
    );
  });

  it('refuses what a person past their budget asks, with the reset time; their group context stays context', () => {
    const p = placed(decidePlacement(input(event({ text: 'one more?' }), { gate: spent })), 'refused');
    expect(p.spent?.cap).toBe('person');
    expect(p.message.rejected?.code).toBe('BUDGET_EXCEEDED');
    const ev = event({ text: 'fyi', kind: 'group' });
    placed(decidePlacement(input(ev, { gate: spent, activation: UNADDRESSED })), 'context_only');
    // Commands still work past a budget (they are not answered by the model).
    placed(
      decidePlacement(input(event({ text: '/help' }), { gate: spent, command: { name: 'help', args: '' } })),
      'command',
    );
  });
});
