// Message search over the live record (Chinese and English, case-insensitive, literal text):
// the search index narrows by bigrams, a regex confirms (src/search/messageSearch.ts).
import { builder } from '../builder.js';
import type { Message } from '../../src/domain/model.js';
import { planMessageSearch, SEARCH_TEXT_MAX, UNINDEXED_WINDOW_DAYS } from '../../src/search/messageSearch.js';
import { keysetConnection } from '../pagination.js';
import { MessageType } from './message.js';
import { RoleEnum } from './enums.js';
import { windowArgs } from './queryFilters.js';
import { dialogueOrNotFound } from './queriesDialogue.js';

builder.queryFields((t) => ({
  searchMessages: t.connection({
    type: MessageType,
    description:
      `Messages whose text, caption or transcription contains \`text\` (1..${SEARCH_TEXT_MAX} characters, literal, case-insensitive), newest first. ` +
      `A one-character text needs a dialogueId or a since/until window of at most ${UNINDEXED_WINDOW_DAYS} days.`,
    args: {
      text: t.arg.string({ required: true }),
      dialogueId: t.arg.id(),
      role: t.arg({ type: RoleEnum, description: 'The sender role.' }),
      includeArchived: t.arg.boolean({
        defaultValue: false,
        description: 'Also search the messages moved out of the live record (BR-002); they have `archivedAt`.',
      }),
      ...windowArgs,
    },
    resolve: async (_r, args, ctx) => {
      const dialogueId = args.dialogueId ? String(args.dialogueId) : undefined;
      const plan = planMessageSearch(
        { text: args.text, dialogueId, role: args.role, since: args.since, until: args.until },
        new Date(),
      );
      if (dialogueId) await dialogueOrNotFound(ctx, dialogueId);
      // Archived messages are copies of live ones that left the live record (plus archivedAt).
      const source = args.includeArchived ? ctx.store.pages.liveAndArchivedMessages : ctx.store.pages.of('messages');
      return keysetConnection<Message>(source, plan.filter, 'createdAt', -1, args);
    },
  }),
}));
