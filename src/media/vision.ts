// Image → text: one non-streaming Chat Completions call to a vision-capable model with the
// image inline as a data URL (the platform's file URL may carry a token or expire).
import type OpenAI from 'openai';
import type { ProviderChain } from '../llm/providerChain.js';
import { MediaError, describeError } from './errors.js';

const INSTRUCTION = [
  'You describe images for a chat companion that cannot see them.',
  'In at most three sentences, say what the image shows: subjects, setting, mood, anything notable.',
  'If the image contains readable text, then add a line starting with "Text:" that quotes it exactly, in its original language.',
  'Describe only what is visible; do not guess names of people.',
].join(' ');

/**
 * The description from the first provider of the vision chain that answers: a 429, a 5xx or a
 * refused connection passes to the next (the fallbacks of LLM_FALLBACKS, each with its model);
 * a model that cannot see answers 400, which is the attempt's failure, retried later as before.
 */
export async function describeImageVia(
  chain: ProviderChain,
  o: { model: string; data: Buffer; mime: string; signal: AbortSignal },
): Promise<string> {
  const routed = await chain.run(
    o.model,
    o.signal,
    // With a provider to go to, a 503 moves on at once instead of the client's own retries.
    ({ provider, model }, signal) =>
      describeImage(provider.openai, { ...o, model, signal, ...(chain.entries.length > 1 ? { maxRetries: 0 } : {}) }),
    // One non-streaming answer: there is no first token to wait for apart from the whole.
    { waitForFirstToken: false },
  );
  if (routed.ok) return routed.value;
  throw routed.error;
}

export async function describeImage(
  openai: OpenAI,
  o: { model: string; data: Buffer; mime: string; signal: AbortSignal; maxRetries?: number },
): Promise<string> {
  let completion: OpenAI.Chat.Completions.ChatCompletion;
  try {
    completion = await openai.chat.completions.create(
      {
        model: o.model,
        messages: [
          { role: 'system', content: INSTRUCTION },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Describe this image.' },
              { type: 'image_url', image_url: { url: `data:${o.mime};base64,${o.data.toString('base64')}` } },
            ],
          },
        ],
      },
      { signal: o.signal, ...(o.maxRetries !== undefined ? { maxRetries: o.maxRetries } : {}) },
    );
  } catch (err) {
    throw new MediaError('VISION_FAILED', describeError(err), { cause: err });
  }
  const message = completion.choices[0]?.message;
  const text = message?.content?.trim() ?? '';
  if (text) return text;
  if (message?.refusal) throw new MediaError('VISION_FAILED', `the model refused: ${message.refusal}`);
  throw new MediaError('VISION_FAILED', 'the vision model returned no description');
}
