// Who said what, as the models read it (issue 36): summary transcripts name every speaker — each
// agent of a room by its own name, people by theirs, the operator as the operator — and agents'
// prompts show an operator's post marked as the operator's, in the prompt's language, while the
// gateway's own notices stay out of both.
import { describe, expect, it } from 'vitest';
import { buildContext, renderConversation, type ContextInput } from '../../src/context/buildContext.js';
import type { RenderOptions } from '../../src/transcript/renderMessage.js';
import { TokenCounter } from '../../src/llm/tokens.js';
import { isShownToAgents } from '../../src/domain/conversation.js';
import type { Message, Role } from '../../src/domain/model.js';
import { renderTranscriptLine } from '../../src/memory/extractionPrompt.js';
import { transcriptOf } from '../../src/summary/summaryPrompts.js';

const T0 = Date.UTC(2026, 3, 4, 9, 0, 0);
const AGENTS = { agt_aria: 'Aria', agt_bo: 'Bo', agt_cy: 'Cy' } as const;

let seq = 0;
function msg(senderRole: Role, senderId: string, content: string, extra: Partial<Message> = {}): Message {
  seq += 1;
  return {
    _id: `msg_${String(seq).padStart(3, '0')}`,
    dialogueId: 'dlg_room',
    sessionId: 'ses_room',
    senderRole,
    senderId,
    contentType: 'text',
    content,
    mentions: [],
    visible: true,
    ...(senderRole === 'human'
      ? { contentMeta: { senderName: 'Lin' } }
      : { delivery: { state: 'complete', platformMessageIds: ['1'] } }),
    createdAt: new Date(T0 + seq * 60_000),
    updatedAt: new Date(T0 + seq * 60_000),
    ...extra,
  };
}

/** A room's stretch of talk: Lin asks, three agents answer, the operator posts, the gateway answers /help. */
function roomTalk(): Message[] {
  seq = 0;
  return [
    msg('human', 'hum_lin', 'Where should we hike on Saturday?'),
    msg('ai', 'agt_aria', 'The ridge trail. It has the best views.'),
    msg('ai', 'agt_bo', 'The lake loop, it is flatter.'),
    msg('ai', 'agt_cy', 'I agree with the ridge.'),
    msg('system', 'operator:alice', 'Reminder: the park closes at 18:00 on Saturdays.'),
    // The gateway's own notices and the ops API's `system`-signed posts are not the talk.
    msg('system', 'gateway', 'Commands:\n/help — show this help'),
    msg('system', 'system', 'Maintenance tonight.'),
    // An operator post the platform refused never reached anyone.
    msg('system', 'operator:alice', 'This one failed.', {
      delivery: { state: 'error', platformMessageIds: [], error: { code: 'PLATFORM_REJECTED', message: 'no' } },
    }),
    msg('human', 'hum_lin', 'Bo, why flatter?', {
      contentMeta: {
        senderName: 'Lin',
        quote: { platformMessageId: '3', text: 'The lake loop, it is flatter.', senderRole: 'ai', senderId: 'agt_bo' },
      },
    }),
    // An agent since removed from the room: not in the store's names, never mistaken for another.
    msg('ai', 'agt_gone', 'I am off.', { contentMeta: { senderName: 'Dee' } }),
  ];
}

/** What the summary jobs pass (src/summary/rollingSummary.ts renderOptionsFor): every agent by id, no viewpoint. */
const summaryView: RenderOptions = { groupChat: true, agentName: 'Aria', agentNames: AGENTS };

describe('summary transcripts name each speaker', () => {
  it('names each agent of a room by its own name, the person by theirs, and the operator as such', () => {
    const lines = transcriptOf(roomTalk(), summaryView).map(renderTranscriptLine);
    const at = (n: number) => new Date(T0 + n * 60_000).toISOString();
    expect(lines).toEqual([
      `[${at(1)}] user (Lin): Where should we hike on Saturday?`,
      `[${at(2)}] assistant (Aria): The ridge trail. It has the best views.`,
      `[${at(3)}] assistant (Bo): The lake loop, it is flatter.`,
      `[${at(4)}] assistant (Cy): I agree with the ridge.`,
      `[${at(5)}] operator: Reminder: the park closes at 18:00 on Saturdays.`,
      // The quote names the agent quoted — not the first agent, and no one's "(you)".
      `[${at(9)}] user (Lin): > Replying to Bo:\n    > The lake loop, it is flatter.\n    Bo, why flatter?`,
      `[${at(10)}] assistant (Dee): I am off.`,
    ]);
  });

  it('in a one-agent chat names the agent too', () => {
    const one = [msg('human', 'hum_lin', 'Hi'), msg('ai', 'agt_aria', 'Hello, Lin.')];
    const lines = transcriptOf(one, { groupChat: false, agentName: 'Aria', agentNames: { agt_aria: 'Aria' } });
    expect(lines.map((l) => [l.role, l.name])).toEqual([
      ['user', 'Lin'],
      ['assistant', 'Aria'],
    ]);
  });
});

describe('operator posts in agents’ prompts', () => {
  const view = (lang?: 'zh' | 'en'): RenderOptions => ({
    groupChat: true,
    agentName: 'Cy',
    selfId: 'agt_cy',
    agentNames: { agt_aria: 'Aria', agt_bo: 'Bo' },
    ...(lang ? { lang } : {}),
  });

  it('shows an operator post as a system line marked [Operator]; notices, system posts and failed posts stay out', () => {
    const shown = renderConversation(roomTalk(), view());
    expect(shown).toEqual([
      { role: 'user', content: 'Lin: Where should we hike on Saturday?' },
      { role: 'user', content: 'Aria: The ridge trail. It has the best views.' },
      { role: 'user', content: 'Bo: The lake loop, it is flatter.' },
      { role: 'assistant', content: 'I agree with the ridge.' },
      { role: 'system', content: '[Operator] Reminder: the park closes at 18:00 on Saturdays.' },
      { role: 'user', content: 'Lin: > Replying to Bo:\n> The lake loop, it is flatter.\nBo, why flatter?' },
      { role: 'user', content: 'Dee: I am off.' },
    ]);
  });

  it('marks it in Chinese when the prompt is Chinese', () => {
    const post = msg('system', 'operator:alice', '周六公园 18 点关门。');
    expect(renderConversation([post], view('zh'))).toEqual([
      { role: 'system', content: '[运营者] 周六公园 18 点关门。' },
    ]);
  });

  it("the built prompt takes the mark's language from the people's writing", () => {
    seq = 0;
    const input: ContextInput = {
      agent: { name: 'Cy', basePersona: 'You are Cy.' },
      recalled: [],
      history: [msg('system', 'operator:alice', '请大家文明发言。'), msg('system', 'gateway', '可用命令：/help')],
      current: [msg('human', 'hum_lin', '我们周六去哪里爬山？')],
      now: new Date(T0 + 3_600_000),
      timezone: 'Asia/Shanghai',
      groupChat: true,
      selfId: 'agt_cy',
    };
    const built = buildContext(
      input,
      { maxTotalTokens: 100_000, middleSectionWarningTokens: 20_000 },
      new TokenCounter(),
    );
    expect(built.messages).toContainEqual({ role: 'system', content: '[运营者] 请大家文明发言。' });
    expect(JSON.stringify(built.messages)).not.toContain('可用命令');
  });

  it('isShownToAgents: what was said and delivered operator posts; never notices', () => {
    const [lin, aria, , , operator, notice, systemPost, failed] = roomTalk();
    expect([lin, aria, operator].map((m) => isShownToAgents(m!))).toEqual([true, true, true]);
    expect([notice, systemPost, failed].map((m) => isShownToAgents(m!))).toEqual([false, false, false]);
    expect(isShownToAgents({ ...operator!, deleted: { at: new Date(T0) } })).toBe(false);
    expect(isShownToAgents({ ...operator!, delivery: { state: 'streaming', platformMessageIds: [] } })).toBe(false);
  });
});
