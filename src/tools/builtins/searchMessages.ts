import { z } from 'zod';
import { defineTool } from '../registry.js';

/** Escapes regex metacharacters so a user's text is searched literally (works for any script). */
export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const searchMessagesTool = defineTool({
  name: 'search_messages',
  description:
    'Search earlier messages of this conversation for a word or phrase (any language). Returns the newest matches first.',
  parameters: z.object({
    query: z.string().trim().min(1).max(200),
    limit: z.number().int().min(1).max(20).optional(),
  }),
  run: async ({ query, limit }, ctx) => {
    const docs = await ctx.store.messages.matchingIn(ctx.dialogueId, escapeRegex(query), limit ?? 5);
    return {
      matches: docs.map((m) => ({ at: m.createdAt.toISOString(), from: m.senderRole, text: m.content.slice(0, 500) })),
    };
  },
});
