// Knowledge end to end (seed 004 FR-004/005, SPEC §12): documents uploaded through GraphQL (txt,
// Markdown, a real PDF), refused ones stored nowhere; a Telegram DM whose prompt holds the
// retrieved passages; the model cites [1] (retrieved) and [9] (not): the chat shows [1] and a
// footnote and never any piece of [9]; the stored reply records exactly the valid source;
// deleting a document removes its chunks and its passages from the next prompt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_OPERATOR_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { replyIdOf } from '../../src/domain/aiMessage.js';
import { DEFAULT_AGENT_ID } from '../../src/store/participants.js';
import { HEADERS } from '../../src/context/buildContext.js';
import type { EventLog, Turn } from '../../src/domain/model.js';

const CHAT = 515_151;
const MAX_BYTES = 64 * 1024;

const UPLOAD = /* GraphQL */ `
  mutation ($agentId: ID!, $name: String!, $mime: String, $content: String!) {
    uploadDocument(agentId: $agentId, name: $name, mime: $mime, contentBase64: $content) {
      id
      name
      type
      size
      chunkCount
      status
    }
  }
`;
const DOCUMENTS = /* GraphQL */ `
  query ($agentId: ID!) {
    documents(agentId: $agentId) {
      id
      name
      type
      size
      chunkCount
      status
      createdAt
    }
  }
`;
const DELETE = /* GraphQL */ `
  mutation ($id: ID!) {
    deleteDocument(id: $id) {
      id
      chunksDeleted
    }
  }
`;

interface Uploaded {
  id: string;
  name: string;
  type: string;
  size: number;
  chunkCount: number;
  status: string;
}

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

async function handbookPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([600, 400]);
  const lines = [
    'Refund policy.',
    'Customers may return any product within 30 days of purchase for a full refund.',
    'Keep the receipt: refunds without a receipt are store credit.',
  ];
  lines.forEach((line, i) => page.drawText(line, { x: 40, y: 340 - i * 24, size: 12, font }));
  return pdf.save();
}

describe('knowledge: documents, retrieval, citations', () => {
  let h: Harness;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness({ KNOWLEDGE_MAX_BYTES: String(MAX_BYTES) });
  });
  afterAll(async () => {
    await h.stop();
  });

  const upload = (name: string, content: Uint8Array | string, mime?: string, token = TEST_OPERATOR_TOKEN) =>
    h.gql<{ uploadDocument: Uploaded }>(
      UPLOAD,
      { agentId: DEFAULT_AGENT_ID, name, content: b64(content), ...(mime ? { mime } : {}) },
      token,
    );
  const codeOf = (r: Awaited<ReturnType<typeof upload>>) => r.body.errors?.[0]?.extensions?.code;

  it('uploads a PDF, a Markdown and a text document through GraphQL', async () => {
    const pdf = await upload('handbook.pdf', await handbookPdf(), 'application/pdf');
    expect(pdf.body.errors).toBeUndefined();
    expect(pdf.body.data?.uploadDocument).toMatchObject({ name: 'handbook.pdf', type: 'pdf', status: 'ready' });
    const md = await upload(
      'hours.md',
      '# Opening hours\n\nThe shop is open Monday to Friday, 9 am to 6 pm.\n\n## Holidays\n\nClosed on public holidays.',
    );
    expect(md.body.data?.uploadDocument).toMatchObject({ type: 'markdown', chunkCount: 2 });
    const txt = await upload('router.txt', 'To reset the router, hold the reset button for ten seconds.', 'text/plain');
    expect(txt.body.data?.uploadDocument).toMatchObject({ type: 'text', chunkCount: 1 });
    for (const r of [pdf, md, txt]) ids[r.body.data!.uploadDocument.name] = r.body.data!.uploadDocument.id;

    const listed = await h.gql<{ documents: Uploaded[] }>(DOCUMENTS, { agentId: DEFAULT_AGENT_ID }, TEST_VIEWER_TOKEN);
    expect(listed.body.data?.documents.map((d) => d.name)).toEqual(['router.txt', 'hours.md', 'handbook.pdf']);
    const chunks = await h.app.store.c.knowledgeChunks.find({ agentId: DEFAULT_AGENT_ID }).toArray();
    expect(chunks).toHaveLength(listed.body.data!.documents.reduce((n, d) => n + d.chunkCount, 0));
    expect(chunks.every((c) => c.embedding !== undefined)).toBe(true);
  });

  it('refuses a .docx, an image, a binary named .txt, an oversized and an empty document, storing nothing', async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Array<number>(60).fill(7)]);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const binary = new Uint8Array(256).map((_, i) => (i * 37) % 256);
    const cases: Array<[string, Uint8Array | string, string | undefined, string]> = [
      [
        'report.docx',
        zip,
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'DOCUMENT_TYPE_UNSUPPORTED',
      ],
      ['photo.png', png, 'image/png', 'DOCUMENT_TYPE_UNSUPPORTED'],
      ['notes.txt', binary, 'text/plain', 'DOCUMENT_TYPE_UNSUPPORTED'],
      ['fake.pdf', 'not a pdf at all', undefined, 'DOCUMENT_MALFORMED'],
      ['big.txt', 'a'.repeat(MAX_BYTES + 1), undefined, 'DOCUMENT_TOO_LARGE'],
      ['empty.txt', '', undefined, 'DOCUMENT_EMPTY'],
      ['blank.md', '  \n\n  ', undefined, 'DOCUMENT_EMPTY'],
    ];
    for (const [name, content, mime, code] of cases) {
      const r = await upload(name, content, mime);
      expect(r.body.data?.uploadDocument ?? null, name).toBeNull();
      expect(codeOf(r), name).toBe(code);
    }
    // A viewer may list but not upload.
    expect(codeOf(await upload('ok.txt', 'fine', undefined, TEST_VIEWER_TOKEN))).toBe('FORBIDDEN');
    const docs = await h.app.store.c.knowledgeDocuments.countDocuments({});
    const chunks = await h.app.store.c.knowledgeChunks.countDocuments({ documentId: { $nin: Object.values(ids) } });
    expect({ docs, chunks }).toEqual({ docs: 3, chunks: 0 });
  });

  async function turn(nth: number): Promise<Turn> {
    return eventually(
      async () => {
        const turns = await h.app.store.c.turns.find({}).sort({ startedAt: 1 }).toArray();
        const t = turns[nth];
        return t?.status === 'responded' ? t : undefined;
      },
      20_000,
      `turn ${nth + 1} answered`,
    );
  }
  const lastPrompt = () =>
    h.llm.requests
      .filter((r) => !r.body.response_format)
      .at(-1)!
      .body.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));

  it('a Telegram DM: the prompt holds the passages; [1] is shown with a footnote, [9] never; the reply records [1]', async () => {
    h.llm.enqueue({
      kind: 'reply',
      chunks: ['You can return it within 30 days [', '1]. Also, cats can fly [', '9', '].'],
      chunkDelayMs: 120,
    });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, messageId: 1, text: 'What is your refund policy?' }));
    const answered = await turn(0);
    await h.tg.waitFor(() => h.tg.sentText(CHAT).some((t) => t.includes('[1] handbook.pdf')), 10_000);

    // Recall and knowledge retrieval embedded the turn's queries in one call between them.
    const queryCalls = h.llm.embeddingsRequests.filter((r) => r.input.includes('What is your refund policy?'));
    expect(queryCalls).toHaveLength(1);

    // The knowledge part: numbered passages under their document names, right after the memories' place.
    const prompt = lastPrompt();
    const part = prompt.find((t) => t.startsWith(HEADERS.knowledge));
    expect(part).toBeDefined();
    expect(part).toContain('[1] handbook.pdf');
    expect(part).toContain('within 30 days of purchase');
    expect(part).toMatch(/cite it .* as \[n\]/);

    // People saw the valid citation and the footnote, and no piece of the invalid one.
    expect(h.tg.sentText(CHAT).join('\n')).toBe(
      'You can return it within 30 days [1]. Also, cats can fly.\n\n[1] handbook.pdf',
    );
    const pushed = h.tg.calls.map((c) => c.params.text).filter((t): t is string => typeof t === 'string');
    expect(pushed.length).toBeGreaterThan(1); // it streamed
    for (const t of pushed) expect(t).not.toMatch(/\[9|9\]/);

    // The record keeps what the model said, and exactly the valid source.
    const reply = await h.app.store.messages.get(replyIdOf(answered._id));
    expect(reply?.content).toBe('You can return it within 30 days [1]. Also, cats can fly [9].');
    expect(reply?.sources).toHaveLength(1);
    expect(reply?.sources?.[0]).toMatchObject({ n: 1, documentId: ids['handbook.pdf'], documentName: 'handbook.pdf' });
    expect(reply?.sources?.[0]?.content).toContain('within 30 days');
    expect(reply!.sources![0]!.relevanceScore).toBeGreaterThan(0);
    expect(reply!.sources![0]!.relevanceScore).toBeLessThanOrEqual(1);

    // The trace says which chunks were retrieved, with their scores.
    const built = await h.app.store.c.events.findOne<EventLog>({ turnId: answered._id, kind: 'context_built' });
    const knowledge = (built?.data as { knowledge?: { chunks: Array<{ n: number; chunkId: string; score: number }> } })
      .knowledge;
    expect(knowledge?.chunks[0]).toMatchObject({ n: 1, chunkId: reply?.sources?.[0]?.chunkId });
    expect(knowledge!.chunks[0]!.score).toBeGreaterThan(0);
  });

  it('the API shows the sources a reply cited', async () => {
    const reply = await h.app.store.c.messages.findOne({ senderRole: 'ai', sources: { $exists: true } });
    const r = await h.gql<{ message: { sources: Array<{ n: number; documentName: string }> } }>(
      /* GraphQL */ `
        query ($id: ID!) {
          message(id: $id) {
            sources {
              n
              documentName
              relevanceScore
            }
          }
        }
      `,
      { id: reply!._id },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data?.message.sources.map((s) => [s.n, s.documentName])).toEqual([[1, 'handbook.pdf']]);
  });

  it('deleting a document removes its chunks, and its passages leave the next prompt', async () => {
    const r = await h.gql<{ deleteDocument: { id: string; chunksDeleted: number } }>(DELETE, {
      id: ids['handbook.pdf'],
    });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data?.deleteDocument.chunksDeleted).toBeGreaterThan(0);
    expect(await h.app.store.c.knowledgeChunks.countDocuments({ documentId: ids['handbook.pdf'] })).toBe(0);
    expect(await h.app.store.c.knowledgeDocuments.countDocuments({ _id: ids['handbook.pdf'] })).toBe(0);
    const again = await h.gql<{ deleteDocument: unknown }>(DELETE, { id: ids['handbook.pdf'] });
    expect(again.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    h.llm.enqueue({ kind: 'reply', chunks: ['We are open 9 to 6 [1].'] });
    h.tg.pushUpdate(
      privateText({ updateId: 2, chatId: CHAT, messageId: 2, text: 'And the refund policy, and your opening hours?' }),
    );
    await turn(1);
    const part = lastPrompt().find((t) => t.startsWith(HEADERS.knowledge)) ?? '';
    expect(part).not.toContain('handbook.pdf');
    expect(part).toContain('hours.md');
  });
});
