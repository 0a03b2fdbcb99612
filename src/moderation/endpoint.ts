// An OpenAI-compatible `/moderations` endpoint (SPEC §14) through the real `openai` client. The
// answer is checked here: a server that answers in another shape is a failure (the Moderator
// then lets the text through with a warning), never a silent "clean".
import type OpenAI from 'openai';
import { z } from 'zod';
import { GatewayError } from '../errors.js';
import type { ModerationVerdict } from '../domain/moderation.js';

/** What a moderation service says of one text; throws when it cannot say. */
export interface ModerationEndpoint {
  /** The moderation model asked (for logs and the trace). */
  readonly model: string;
  classify(text: string, signal: AbortSignal): Promise<ModerationVerdict>;
}

// OpenAI's shape: `{ id, model, results: [{ flagged, categories: {name: bool}, category_scores }] }`.
// Some compatible servers send null for a category they do not judge.
const responseSchema = z.object({
  results: z
    .array(
      z.object({
        flagged: z.boolean(),
        categories: z.record(z.string(), z.boolean().nullable()).optional(),
      }),
    )
    .min(1, 'no results'),
});

export class OpenAiModerationEndpoint implements ModerationEndpoint {
  constructor(
    private readonly client: OpenAI,
    readonly model: string,
  ) {}

  async classify(text: string, signal: AbortSignal): Promise<ModerationVerdict> {
    let raw: unknown;
    try {
      raw = await this.client.moderations.create({ model: this.model, input: text }, { signal });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new GatewayError('MODERATION_UNAVAILABLE', `moderation request failed: ${why}`, { cause: err });
    }
    const parsed = responseSchema.safeParse(raw);
    if (!parsed.success)
      throw new GatewayError(
        'MODERATION_UNAVAILABLE',
        `moderation response invalid: ${parsed.error.issues[0]?.message ?? 'bad shape'}`,
      );
    const results = parsed.data.results;
    if (!results.some((r) => r.flagged)) return { flagged: false };
    const categories = results.flatMap((r) =>
      Object.entries(r.categories ?? {})
        .filter(([, on]) => on === true)
        .map(([name]) => name),
    );
    return { flagged: true, by: 'endpoint', categories: [...new Set(categories)] };
  }
}
