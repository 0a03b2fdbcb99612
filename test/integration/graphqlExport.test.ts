// exportDialogue over HTTP: a stored dialogue (an archived session and a live one, Chinese and
// English, media, a quote, an edit, a deletion) as Markdown and as a PDF whose text comes back
// out with unpdf; roles, unknown ids and the size cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { startHarness, type Harness } from '../support/harness.js';
import { TEST_OPERATOR_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import type { Agent, ArchivedMessage, Dialogue, Human, Message, Session } from '../../src/domain/model.js';
import { MAX_EXPORT_MESSAGES } from '../../src/ops/exportDialogue.js';

const T0 = Date.UTC(2026, 3, 1, 9, 0, 0); // 17:00 in Asia/Shanghai
const at = (min: number) => new Date(T0 + min * 60_000);
const ZH = '我养了一只叫麻薯的猫，她喜欢睡在我的键盘上。';
const EN = 'The quick brown fox jumps over the lazy dog.';
const ZH_REPLY = '麻薯听起来是一只很有个性的猫！';

const EXPORT = `mutation ($id: ID!, $format: ExportFormat!) { exportDialogue(dialogueId: $id, format: $format) { fileName mimeType format content byteLength messageCount } }`;
interface Exported {
  exportDialogue: {
    fileName: string;
    mimeType: string;
    format: string;
    content: string;
    byteLength: number;
    messageCount: number;
  };
}

let seq = 0;
const msg = (
  o: Partial<Message> & Pick<Message, 'sessionId' | 'senderRole' | 'senderId' | 'content' | 'createdAt'>,
): Message => ({
  _id: `msg_x${String(++seq).padStart(3, '0')}`,
  dialogueId: 'dlg_export',
  contentType: 'text',
  mentions: [],
  visible: true,
  updatedAt: o.createdAt,
  ...o,
});

describe('exportDialogue', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ DISPLAY_TIMEZONE: 'Asia/Shanghai' }, ['api']);
    const { c } = h.app.store;
    await c.humans.insertOne({
      _id: 'hum_mia',
      identities: [{ platform: 'telegram', userId: '42' }],
      displayName: 'Mia',
      createdAt: at(0),
      updatedAt: at(0),
    } satisfies Human);
    await c.agents.insertOne({
      _id: 'agt_rainbow',
      name: 'Rainbow',
      basePersona: 'kind',
      isDefault: false,
      createdAt: at(0),
      updatedAt: at(0),
    } satisfies Agent);
    await c.dialogues.insertOne({
      _id: 'dlg_export',
      type: 'human_ai',
      chat: { platform: 'telegram', chatId: '42' },
      humanIds: ['hum_mia'],
      agentIds: ['agt_rainbow'],
      title: '麻薯 the cat',
      status: 'active',
      messageCount: 5,
      currentSessionId: 'ses_live',
      lastActivityAt: at(130),
      createdAt: at(0),
      updatedAt: at(130),
    } satisfies Dialogue);
    await c.sessions.insertMany([
      {
        _id: 'ses_old',
        dialogueId: 'dlg_export',
        kind: 'dialogue',
        status: 'closed',
        closeReason: 'timeout',
        archived: true,
        startedAt: at(0),
        lastActivityAt: at(3),
        endedAt: at(3),
        stats: { messageCount: 3, turnCount: 1 },
      },
      {
        _id: 'ses_live',
        dialogueId: 'dlg_export',
        kind: 'dialogue',
        status: 'open',
        startedAt: at(120),
        lastActivityAt: at(130),
        stats: { messageCount: 4, turnCount: 2 },
      },
    ] satisfies Session[]);
    const archived: ArchivedMessage[] = [
      {
        ...msg({ sessionId: 'ses_old', senderRole: 'human', senderId: 'hum_mia', content: ZH, createdAt: at(1) }),
        archivedAt: at(200),
      },
      {
        ...msg({
          sessionId: 'ses_old',
          senderRole: 'ai',
          senderId: 'agt_rainbow',
          content: ZH_REPLY,
          delivery: { state: 'complete', platformMessageIds: ['2'] },
          createdAt: at(2),
        }),
        archivedAt: at(200),
      },
      {
        ...msg({
          sessionId: 'ses_old',
          senderRole: 'human',
          senderId: 'hum_mia',
          content: '',
          contentType: 'audio',
          contentMeta: {
            attachments: [
              {
                kind: 'voice',
                fileRef: 'v',
                duration: 3,
                sourceMessageId: '3',
                processing: { state: 'done', attempts: 1, text: '她又把咖啡打翻了', updatedAt: at(3) },
              },
            ],
          },
          createdAt: at(3),
        }),
        archivedAt: at(200),
      },
    ];
    await c.archivedMessages.insertMany(archived);
    await c.messages.insertMany([
      // Left behind by an interrupted archive move: in both collections, exported once.
      archived[2]!,
      msg({
        sessionId: 'ses_live',
        senderRole: 'human',
        senderId: 'hum_mia',
        content: EN,
        edits: [{ content: 'The quick brown fox.', editedAt: at(121) }],
        createdAt: at(120),
      }),
      msg({
        sessionId: 'ses_live',
        senderRole: 'human',
        senderId: 'hum_mia',
        content: 'Look!',
        contentType: 'image',
        contentMeta: {
          attachments: [
            {
              kind: 'image',
              fileRef: 'p',
              sourceMessageId: '5',
              processing: { state: 'done', attempts: 1, text: 'a grey cat on a keyboard', updatedAt: at(122) },
            },
          ],
        },
        createdAt: at(122),
      }),
      msg({
        sessionId: 'ses_live',
        senderRole: 'human',
        senderId: 'hum_mia',
        content: 'That is what you said.',
        contentType: 'quote_reply',
        contentMeta: { quote: { platformMessageId: '2', senderRole: 'ai', senderId: 'agt_rainbow', text: ZH_REPLY } },
        createdAt: at(124),
      }),
      msg({
        sessionId: 'ses_live',
        senderRole: 'human',
        senderId: 'hum_mia',
        content: 'never mind',
        deleted: { at: at(126) },
        createdAt: at(125),
      }),
    ]);
  });
  afterAll(async () => {
    await h.stop();
  });

  it('exports Markdown for an operator: sessions in order, archived messages first, local times, media, quotes, marks', async () => {
    const r = await h.gql<Exported>(EXPORT, { id: 'dlg_export', format: 'MARKDOWN' }, TEST_OPERATOR_TOKEN);
    expect(r.body.errors).toBeUndefined();
    const e = r.body.data!.exportDialogue;
    expect(e).toMatchObject({ format: 'MARKDOWN', mimeType: 'text/markdown; charset=utf-8', messageCount: 7 });
    expect(e.fileName).toMatch(/^dialogue-dlg_export-\d{4}-\d{2}-\d{2}\.md$/);
    expect(e.byteLength).toBe(Buffer.byteLength(e.content, 'utf8'));
    const md = e.content;
    expect(md.startsWith('# 麻薯 the cat\n')).toBe(true);
    expect(md).toContain('Participants: Mia (human), Rainbow (AI)');
    // Storage is UTC; 09:00Z is 17:00 in Asia/Shanghai.
    expect(md).toContain('**Mia (human) · 2026-04-01 17:01:00**');
    const order = [
      ZH,
      ZH_REPLY,
      '她又把咖啡打翻了',
      '## Session 2',
      EN,
      'a grey cat on a keyboard',
      '> Replying to Rainbow:',
      'never mind',
    ].map((s) => md.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(md.split('她又把咖啡打翻了').length - 1).toBe(1);
    expect(md).toContain('*edited 2026-04-01 19:01:00; before: "The quick brown fox."*');
    expect(md).toContain('*deleted on the platform 2026-04-01 19:06:00*');
    expect(md).toContain('Archived');
  });

  it('exports a PDF whose Chinese and English text can be read back', async () => {
    const r = await h.gql<Exported>(EXPORT, { id: 'dlg_export', format: 'PDF' }, TEST_OPERATOR_TOKEN);
    expect(r.body.errors).toBeUndefined();
    const e = r.body.data!.exportDialogue;
    expect(e).toMatchObject({ format: 'PDF', mimeType: 'application/pdf', messageCount: 7 });
    expect(e.fileName).toMatch(/\.pdf$/);
    const bytes = Buffer.from(e.content, 'base64');
    expect(bytes.length).toBe(e.byteLength);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(ZH);
    expect(flat).toContain(ZH_REPLY);
    expect(flat).toContain(EN);
    expect(flat).toContain('Mia (human) · 2026-04-01 17:01:00');
  });

  it('answers unknown dialogues, viewers and oversized dialogues with clear codes', async () => {
    const unknown = await h.gql(EXPORT, { id: 'dlg_nope', format: 'MARKDOWN' }, TEST_OPERATOR_TOKEN);
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('CONVERSATION_NOT_FOUND');
    const viewer = await h.gql<Exported>(EXPORT, { id: 'dlg_export', format: 'MARKDOWN' }, TEST_VIEWER_TOKEN);
    expect(viewer.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(viewer.body.data?.exportDialogue ?? null).toBeNull();

    const { c } = h.app.store;
    await c.dialogues.insertOne({
      _id: 'dlg_huge',
      type: 'human_ai',
      chat: { platform: 'telegram', chatId: '43' },
      humanIds: [],
      agentIds: [],
      status: 'active',
      messageCount: MAX_EXPORT_MESSAGES + 1,
      lastActivityAt: at(0),
      createdAt: at(0),
      updatedAt: at(0),
    } satisfies Dialogue);
    const many = Array.from({ length: MAX_EXPORT_MESSAGES + 1 }, (_, i): Message => ({
      _id: `msg_huge_${i}`,
      dialogueId: 'dlg_huge',
      sessionId: 'ses_huge',
      senderRole: 'human',
      senderId: 'h',
      contentType: 'text',
      content: 'x',
      mentions: [],
      visible: true,
      createdAt: at(i),
      updatedAt: at(i),
    }));
    for (let i = 0; i < many.length; i += 2000) await c.messages.insertMany(many.slice(i, i + 2000));
    const huge = await h.gql(EXPORT, { id: 'dlg_huge', format: 'MARKDOWN' }, TEST_OPERATOR_TOKEN);
    expect(huge.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(huge.body.errors?.[0]?.message).toContain(`at most ${MAX_EXPORT_MESSAGES}`);
    expect(JSON.stringify(huge.body)).not.toMatch(/at .*\.ts/);
  }, 120_000);
});
