import { z } from 'zod';
import { defineTool } from '../registry.js';
import { planMessageSearch, SEARCH_TEXT_MAX } from '../../search/messageSearch.js';
import { searchMessages } from '../../store/indexSearch.js';
import { searchableTexts } from '../../search/searchKeys.js';

export const searchMessagesTool = defineTool({
  name: 'search_messages',
  description:
    'Search earlier messages of this conversation for a word or phrase (any language). Returns the newest matches first.',
  parameters: z.object({
    query: z.string().trim().min(1).max(SEARCH_TEXT_MAX),
    limit: z.number().int().min(1).max(20).optional(),
  }),
  run: async ({ query, limit }, ctx) => {
    // The search index (src/search/), the same as every other search: shown, undeleted messages of this dialogue.
    const plan = planMessageSearch({ text: query, dialogueId: ctx.dialogueId, visibleOnly: true }, new Date());
    const page = await searchMessages(ctx.store, plan, { limit: limit ?? 5 });
    return {
      matches: page.messages.map((m) => ({
        at: m.createdAt.toISOString(),
        from: m.senderRole,
        text: (searchableTexts(m)[0] ?? '').slice(0, 500),
      })),
      // Said to the model rather than hidden: older messages may be missing from the matches.
      ...(page.complete ? {} : { note: 'older messages are still being indexed; some matches may be missing' }),
    };
  },
});
