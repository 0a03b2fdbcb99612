import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { LocalMemoryVersions } from '../../src/memory/versions.js';
import { toMemoryEmbedding } from '../../src/memory/vectors.js';
import { KnowledgeCache, type KnowledgeCacheDeps } from '../../src/knowledge/knowledgeCache.js';
import { KnowledgeRetrieval } from '../../src/knowledge/retrieval.js';
import { chunkSearchText } from '../../src/knowledge/knowledgeIndex.js';
import { chunkIdOf } from '../../src/knowledge/chunking.js';
import type { KnowledgeChunk, KnowledgeDocument } from '../../src/domain/knowledge.js';
import type { Embedder } from '../../src/memory/embedder.js';
import { buildContext, HEADERS, PART_NAMES } from '../../src/context/buildContext.js';
import { TokenCounter } from '../../src/llm/tokens.js';

const log = pino({ level: 'silent' });
const embedder = new HashedNgramEmbedder(256);
const at = new Date('2024-05-01T10:00:00Z');

const PASSAGES = [
  'Refund policy: customers may return any product within 30 days of purchase for a full refund.',
  'The office is open Monday to Friday from 9 am to 6 pm and closed on public holidays.',
  '员工每年享有十五天带薪年假，入职满一年后开始计算。',
  'To reset the router, hold the reset button for ten seconds until the lights blink.',
];

/** An in-memory knowledge store counting its reads. */
function fakeStore(withDocuments: boolean) {
  const doc: KnowledgeDocument = {
    _id: 'doc_1',
    agentId: 'agt_1',
    name: 'handbook.md',
    type: 'markdown',
    size: 1,
    chars: 1,
    chunkCount: PASSAGES.length,
    sha256: '',
    status: 'ready',
    createdAt: at,
    updatedAt: at,
  };
  const chunks: KnowledgeChunk[] = PASSAGES.map((content, index) => ({
    _id: chunkIdOf(doc._id, index),
    documentId: doc._id,
    agentId: doc.agentId,
    index,
    content,
    embedding: toMemoryEmbedding(embedder.id, embedder.embedOne(chunkSearchText({ documentName: doc.name, content }))),
    createdAt: at,
  }));
  const reads = { marks: 0, loads: 0 };
  const knowledge: KnowledgeCacheDeps['store']['knowledge'] = {
    mayHaveDocuments: () => {
      reads.marks++;
      return Promise.resolve(withDocuments);
    },
    loadAgent: () => {
      reads.loads++;
      return Promise.resolve({ documents: [doc], chunks });
    },
    setChunkEmbedding: () => Promise.resolve(),
  };
  return { store: { knowledge }, reads };
}

class CountingEmbedder implements Embedder {
  calls = 0;
  constructor(
    private readonly inner: Embedder,
    private readonly down = false,
  ) {}
  get id() {
    return this.inner.id;
  }
  get dims() {
    return this.inner.dims;
  }
  embed(texts: string[]): Promise<Float32Array[]> {
    this.calls++;
    return this.down ? Promise.reject(new Error('embeddings down')) : this.inner.embed(texts);
  }
}

function rig(withDocuments: boolean, o: { down?: boolean } = {}) {
  const { store, reads } = fakeStore(withDocuments);
  const versions = new LocalMemoryVersions();
  const counting = new CountingEmbedder(embedder, o.down);
  const cache = new KnowledgeCache({ store, embedder, versions, log });
  const retrieval = new KnowledgeRetrieval({ cache, embedder: counting, log });
  return { cache, retrieval, reads, versions, embedder: counting };
}

describe('knowledge retrieval', () => {
  it('an agent without documents: one mark read, then nothing but the version check; no embedding', async () => {
    const r = rig(false);
    for (let i = 0; i < 3; i++) {
      const res = await r.retrieval.retrieve({ agentId: 'agt_1', message: 'What is the refund policy?', topK: 5 });
      expect(res.sources).toEqual([]);
      expect(res.searched).toBe(0);
    }
    expect(r.reads).toEqual({ marks: 1, loads: 0 });
    expect(r.embedder.calls).toBe(0);
  });

  it('finds the passage that answers, numbered from 1, with a relevance in 0..1', async () => {
    const r = rig(true);
    const res = await r.retrieval.retrieve({ agentId: 'agt_1', message: 'What is the refund policy?', topK: 3 });
    expect(res.sources[0]).toMatchObject({ n: 1, documentName: 'handbook.md', chunkId: chunkIdOf('doc_1', 0) });
    expect(res.sources.map((s) => s.n)).toEqual(res.sources.map((_, i) => i + 1));
    for (const s of res.sources) {
      expect(s.score).toBeGreaterThan(0);
      expect(s.score).toBeLessThanOrEqual(1);
    }
    expect(res.sources[0]!.score).toBeGreaterThanOrEqual(res.sources.at(-1)!.score);
    const zh = await r.retrieval.retrieve({ agentId: 'agt_1', message: '年假有多少天？', topK: 3 });
    expect(zh.sources[0]?.content).toContain('年假');
  });

  it('small talk pulls in nothing', async () => {
    const r = rig(true);
    const res = await r.retrieval.retrieve({ agentId: 'agt_1', message: 'hi there, how are you?', topK: 5 });
    expect(res.sources).toEqual([]);
    expect(res.searched).toBe(PASSAGES.length);
  });

  it('answers from keywords alone when embeddings are down', async () => {
    const r = rig(true, { down: true });
    const res = await r.retrieval.retrieve({ agentId: 'agt_1', message: 'how do I reset the router', topK: 2 });
    expect(res.degraded).toBe('keyword_only');
    expect(res.sources[0]?.content).toContain('reset the router');
  });

  it('keeps the index until the agent version moves, then reloads it', async () => {
    const r = rig(true);
    await r.cache.get('agt_1');
    await r.cache.get('agt_1');
    expect(r.reads.loads).toBe(1);
    await r.versions.bump({ ownerId: 'agt_1' }); // another process changed the documents
    await r.cache.get('agt_1');
    expect(r.reads.loads).toBe(2);
    await r.cache.noteChanged('agt_1'); // this process did
    await r.cache.get('agt_1');
    expect(r.reads.loads).toBe(3);
  });
  it("a reply's retrieval takes the index its prepare checked moments before: one version read", async () => {
    const r = rig(true);
    const get = r.versions.get.bind(r.versions);
    let versionReads = 0;
    r.versions.get = (s) => (versionReads++, get(s));
    await r.retrieval.prepare('agt_1');
    const res = await r.retrieval.retrieve({ agentId: 'agt_1', message: 'What is the refund policy?', topK: 1 });
    expect(res.sources[0]?.content).toContain('Refund policy');
    expect(versionReads).toBe(1);
    // Unprepared, it checks again: another process's change is seen at once.
    await r.versions.bump({ ownerId: 'agt_1' });
    await r.retrieval.retrieve({ agentId: 'agt_1', message: 'What is the refund policy?', topK: 1 });
    expect(versionReads).toBe(2);
    expect(r.reads.loads).toBe(2);
  });
});

describe('the knowledge part of the prompt', () => {
  it('comes right after the memories, numbered with document names, with the instruction to cite', () => {
    const built = buildContext(
      {
        agent: { name: 'Rainbow', basePersona: 'You are Rainbow.' },
        recalled: [{ kind: 'fact', text: 'User lives in Lisbon', occurredAt: at }],
        knowledge: [
          { n: 1, documentName: 'handbook.pdf', heading: 'Refunds', content: 'Within 30 days.' },
          { n: 2, documentName: 'faq.md', content: 'Open 9 to 6.' },
        ],
        rollingSummary: 'They talked about shopping.',
        history: [],
        current: [],
        now: at,
        timezone: 'UTC',
        groupChat: false,
      },
      { maxTotalTokens: 100_000, middleSectionWarningTokens: 20_000 },
      new TokenCounter(),
    );
    const texts = built.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
    const memories = texts.findIndex((t) => t.startsWith(HEADERS.memories));
    const knowledge = texts.findIndex((t) => t.startsWith(HEADERS.knowledge));
    const summary = texts.findIndex((t) => t.startsWith(HEADERS.summary));
    expect(knowledge).toBe(memories + 1);
    expect(summary).toBe(knowledge + 1);
    expect(texts[knowledge]).toContain('[1] handbook.pdf — Refunds\nWithin 30 days.');
    expect(texts[knowledge]).toContain('[2] faq.md\nOpen 9 to 6.');
    expect(texts[knowledge]).toMatch(/cite it .* as \[n\]/);
    expect(built.parts.knowledge.tokens).toBeGreaterThan(0);
    expect(PART_NAMES.indexOf('knowledge')).toBe(PART_NAMES.indexOf('memories') + 1);
  });

  it('is absent without passages', () => {
    const built = buildContext(
      {
        agent: { name: 'R', basePersona: 'x' },
        recalled: [],
        history: [],
        current: [],
        now: at,
        timezone: 'UTC',
        groupChat: false,
      },
      { maxTotalTokens: 100_000, middleSectionWarningTokens: 20_000 },
      new TokenCounter(),
    );
    expect(built.parts.knowledge).toEqual({ tokens: 0, chars: 0 });
  });
});
