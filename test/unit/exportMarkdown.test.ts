// The Markdown transcript of a dialogue: header, sessions as sections with their times, every
// message with its sender and display time in the configured zone, media in words, quotes,
// edits, deletions, refusals and undelivered replies.
import { describe, expect, it } from 'vitest';
import type { Attachment, Message, Session } from '../../src/domain/model.js';
import { renderMarkdown } from '../../src/export/markdown.js';
import { senderLabel, timeFormatter, type ExportHeader } from '../../src/export/exportBlocks.js';

const T0 = Date.UTC(2026, 3, 1, 9, 0, 0); // 17:00 in Asia/Shanghai
const at = (min: number) => new Date(T0 + min * 60_000);
const names = new Map([
  ['hum_mia', 'Mia'],
  ['agt_rainbow', 'Rainbow'],
]);
const ctx = { timezone: 'Asia/Shanghai', names };

const header: ExportHeader = {
  dialogueId: 'dlg_1',
  title: '我的猫 Mochi',
  type: 'human_ai',
  chat: { platform: 'telegram', chatId: '42' },
  participants: [
    { role: 'human', id: 'hum_mia', name: 'Mia' },
    { role: 'ai', id: 'agt_rainbow', name: 'Rainbow' },
  ],
  createdAt: at(0),
  exportedAt: at(600),
  timezone: 'Asia/Shanghai',
  messageCount: 6,
  sessionCount: 2,
};

const session = (id: string, start: number, o: Partial<Session> = {}): Session => ({
  _id: id,
  dialogueId: 'dlg_1',
  kind: 'dialogue',
  status: 'closed',
  startedAt: at(start),
  lastActivityAt: at(start + 10),
  endedAt: at(start + 70),
  closeReason: 'timeout',
  stats: { messageCount: 3, turnCount: 1 },
  ...o,
});

let n = 0;
const message = (
  o: Partial<Message> & Pick<Message, 'sessionId' | 'senderRole' | 'senderId' | 'content' | 'createdAt'>,
): Message => ({
  _id: `msg_${++n}`,
  dialogueId: 'dlg_1',
  contentType: 'text',
  mentions: [],
  visible: true,
  updatedAt: o.createdAt,
  ...o,
});

const image: Attachment = {
  kind: 'image',
  fileRef: 'f1',
  sourceMessageId: '7',
  processing: { state: 'done', attempts: 1, text: 'a grey cat asleep on a keyboard', via: 'vision', updatedAt: at(1) },
};
const voice: Attachment = {
  kind: 'voice',
  fileRef: 'f2',
  duration: 4,
  sourceMessageId: '8',
  processing: { state: 'done', attempts: 1, text: '她昨天又把咖啡打翻了', via: 'transcription', updatedAt: at(2) },
};

describe('Markdown export', () => {
  const s1 = session('ses_a', 0, { archived: true, summary: 'Mia talked about her cat.' });
  const s2 = session('ses_b', 120, { status: 'open', endedAt: undefined, closeReason: undefined });
  const messages: Message[] = [
    message({
      sessionId: 'ses_a',
      senderRole: 'human',
      senderId: 'hum_mia',
      content: 'Look at her!',
      contentType: 'image',
      contentMeta: { attachments: [image] },
      createdAt: at(1),
    }),
    message({
      sessionId: 'ses_a',
      senderRole: 'ai',
      senderId: 'agt_rainbow',
      content: '她好可爱！',
      delivery: { state: 'complete', platformMessageIds: ['9'] },
      createdAt: at(2),
    }),
    message({
      sessionId: 'ses_a',
      senderRole: 'human',
      senderId: 'hum_mia',
      content: '',
      contentType: 'audio',
      contentMeta: { attachments: [voice] },
      createdAt: at(3),
    }),
    message({
      sessionId: 'ses_b',
      senderRole: 'human',
      senderId: 'hum_mia',
      content: 'Yes, that one.',
      contentType: 'quote_reply',
      contentMeta: { quote: { platformMessageId: '9', senderRole: 'ai', senderId: 'agt_rainbow', text: '她好可爱！' } },
      edits: [{ content: 'Yes that one', editedAt: at(122) }],
      createdAt: at(121),
    }),
    message({
      sessionId: 'ses_b',
      senderRole: 'human',
      senderId: 'hum_mia',
      content: 'oops',
      deleted: { at: at(124) },
      createdAt: at(123),
    }),
    message({
      sessionId: 'ses_b',
      senderRole: 'ai',
      senderId: 'agt_rainbow',
      content: 'Half a rep',
      delivery: { state: 'error', platformMessageIds: [], error: { code: 'LLM_SERVICE_ERROR', message: 'down' } },
      createdAt: at(125),
    }),
    message({
      sessionId: 'ses_b',
      senderRole: 'system',
      senderId: 'operator:alice',
      content: 'Maintenance at 22:00.',
      createdAt: at(126),
    }),
  ];
  const md = renderMarkdown(header, [s2, s1], messages, ctx);

  it('starts with the title and the participants', () => {
    expect(md.startsWith('# 我的猫 Mochi\n')).toBe(true);
    expect(md).toContain('Participants: Mia (human), Rainbow (AI)');
    expect(md).toContain('times in Asia/Shanghai');
  });

  it('gives each session a section in order, with its times in the configured zone', () => {
    const first = md.indexOf('## Session 1');
    const second = md.indexOf('## Session 2');
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    expect(md).toContain('2026-04-01 17:00:00 – 2026-04-01 18:10:00 (closed: timeout)');
    expect(md).toContain('2026-04-01 19:00:00 – open');
    expect(md).toContain('Summary: Mia talked about her cat.');
    expect(md).toContain('Archived');
  });

  it('names each sender with role and local time, in message order', () => {
    const lines = md.split('\n').filter((l) => l.startsWith('**'));
    expect(lines).toEqual([
      '**Mia (human) · 2026-04-01 17:01:00**',
      '**Rainbow (AI) · 2026-04-01 17:02:00**',
      '**Mia (human) · 2026-04-01 17:03:00**',
      '**Mia (human) · 2026-04-01 19:01:00**',
      '**Mia (human) · 2026-04-01 19:03:00**',
      '**Rainbow (AI) · 2026-04-01 19:05:00**',
      '**Operator alice (system) · 2026-04-01 19:06:00**',
    ]);
  });

  it('shows media in words, quotes with their source, and marks edits, deletions and failed replies', () => {
    expect(md).toContain('a grey cat asleep on a keyboard');
    expect(md).toContain('她昨天又把咖啡打翻了');
    expect(md).toContain('> Replying to Rainbow:\n> 她好可爱！');
    expect(md).toContain('*edited 2026-04-01 19:02:00; before: "Yes that one"*');
    expect(md).toContain('*deleted on the platform 2026-04-01 19:04:00*');
    expect(md).toContain('*delivery: error (LLM_SERVICE_ERROR)*');
    expect(md).toContain('Maintenance at 22:00.');
  });

  it('opens a section for a message whose session record is missing', () => {
    const orphan = renderMarkdown(
      header,
      [],
      [message({ sessionId: 'ses_gone', senderRole: 'human', senderId: 'hum_x', content: 'hi', createdAt: at(1) })],
      ctx,
    );
    expect(orphan).toContain('## Session ses_gone');
    expect(orphan).toContain('**hum_x (human)');
  });
});

describe('export helpers', () => {
  it('formats instants in the given zone', () => {
    expect(timeFormatter('Asia/Shanghai')(new Date(Date.UTC(2026, 0, 1, 16, 30, 5)))).toBe('2026-01-02 00:30:05');
    expect(timeFormatter('UTC')(new Date(Date.UTC(2026, 0, 1, 16, 30, 5)))).toBe('2026-01-01 16:30:05');
  });

  it('escapes composed lines only where Markdown would read syntax', () => {
    const md = renderMarkdown({ ...header, title: '*bold* <b>x</b> _em_ a_b' }, [], [], ctx);
    expect(md.split('\n')[0]).toBe('# \\*bold\\* \\<b>x\\</b> \\_em\\_ a_b');
  });

  it('labels system senders as operator or system, humans by the name they wrote under', () => {
    expect(senderLabel({ senderRole: 'system', senderId: 'operator:bob' }, ctx)).toBe('Operator bob');
    expect(senderLabel({ senderRole: 'system', senderId: 'gateway' }, ctx)).toBe('System');
    expect(senderLabel({ senderRole: 'human', senderId: 'hum_mia', contentMeta: { senderName: 'Mimi' } }, ctx)).toBe(
      'Mimi',
    );
    expect(senderLabel({ senderRole: 'ai', senderId: 'agt_rainbow' }, ctx)).toBe('Rainbow');
  });
});
