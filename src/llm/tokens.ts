// Token counts with the real tokenizer (o200k_base: GPT-4o, GPT-4.1, GPT-5, o-series), so the
// prompt limits of seed 001 are measured the way the provider bills them. Counting is cached:
// whole-session mode re-renders up to 1000 messages every turn, and almost all of them were
// already counted on the previous turn.
import { createHash } from 'node:crypto';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** Chat format overhead of one message: <|im_start|> role <|im_sep|> … <|im_end|>. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** A `name` field costs its own tokens plus one separator. */
export const NAME_OVERHEAD_TOKENS = 1;
/** Every request ends with the primed assistant header (<|im_start|>assistant<|im_sep|>). */
export const REPLY_PRIMING_TOKENS = 3;

// User text may contain strings like "<|endoftext|>"; they are ordinary text to us, and the
// tokenizer would otherwise throw on them.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export interface TokenCounterStats {
  hits: number;
  misses: number;
  size: number;
  capacity: number;
}

export class TokenCounter {
  private readonly cache = new Map<string, number>();
  private hits = 0;
  private misses = 0;

  constructor(private readonly capacity = 5000) {}

  /** Tokens of a text. */
  count(text: string): number {
    if (text.length === 0) return 0;
    // Short texts are their own key; longer ones are keyed by a hash so the cache stays small.
    const key = text.length <= 64 ? `t:${text}` : `h:${createHash('sha1').update(text).digest('base64')}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.hits += 1;
      // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    this.misses += 1;
    const n = countTokens(text, AS_PLAIN_TEXT);
    this.cache.set(key, n);
    if (this.cache.size > this.capacity) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    return n;
  }

  /** Tokens of one chat message, including the chat format's per-message overhead. */
  countMessage(m: ChatCompletionMessageParam): number {
    let n = MESSAGE_OVERHEAD_TOKENS + this.countContent(m.content);
    if ('name' in m && typeof m.name === 'string' && m.name) n += this.count(m.name) + NAME_OVERHEAD_TOKENS;
    if (m.role === 'assistant' && m.tool_calls) {
      for (const call of m.tool_calls) {
        if (call.type === 'function') n += this.count(call.function.name) + this.count(call.function.arguments);
      }
    }
    return n;
  }

  /** Tokens of a whole request's messages, as the provider counts its input. */
  countMessages(messages: readonly ChatCompletionMessageParam[]): number {
    return messages.reduce((sum, m) => sum + this.countMessage(m), REPLY_PRIMING_TOKENS);
  }

  stats(): TokenCounterStats {
    return { hits: this.hits, misses: this.misses, size: this.cache.size, capacity: this.capacity };
  }

  private countContent(content: ChatCompletionMessageParam['content']): number {
    if (content === null || content === undefined) return 0;
    if (typeof content === 'string') return this.count(content);
    let n = 0;
    // Images and audio parts are billed by the provider by size, not by text; only text parts count here.
    for (const part of content) if (part.type === 'text') n += this.count(part.text);
    return n;
  }
}
