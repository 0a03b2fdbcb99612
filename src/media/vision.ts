// Image → text: one non-streaming Chat Completions call to a vision-capable model with the
// image inline as a data URL (the platform's file URL may carry a token or expire).
import type OpenAI from 'openai';
import { MediaError, describeError } from './errors.js';

const INSTRUCTION = [
  'You describe images for a chat companion that cannot see them.',
  'In at most three sentences, say what the image shows: subjects, setting, mood, anything notable.',
  'If the image contains readable text, then add a line starting with "Text:" that quotes it exactly, in its original language.',
  'Describe only what is visible; do not guess names of people.',
].join(' ');

export async function describeImage(
  openai: OpenAI,
  o: { model: string; data: Buffer; mime: string; signal: AbortSignal },
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
      { signal: o.signal },
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
