// Message search over the live record (Chinese and English, case-insensitive, literal text):
// the project's own index narrows by bigrams, the candidates' text confirms
// (src/search/messageSearch.ts, src/store/indexSearch.ts). Pages are keyed by (createdAt, id).
import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import type { Message } from '../../src/domain/model.js';
import { planMessageSearch, SEARCH_TEXT_MAX, UNINDEXED_WINDOW_DAYS } from '../../src/search/messageSearch.js';
import { searchMessages, type SearchCursor } from '../../src/store/indexSearch.js';
import { decodeCursor, encodeCursor, PAGE_DEFAULT, PAGE_MAX } from '../pagination.js';
import { apiError } from '../errors.js';
import { MessageType } from './message.js';
import { RoleEnum } from './enums.js';
import { windowArgs } from './queryFilters.js';
import { dialogueOrNotFound } from './queriesDialogue.js';

const cursorOf = (c: string | undefined): SearchCursor | undefined => {
  if (!c) return undefined;
  const [at, id] = decodeCursor(c);
  return { at: at.getTime(), id };
};

/** A search connection also says whether the index covered the whole record. */
type SearchConnection = Awaited<ReturnType<typeof resolveCursorConnection<Promise<Message[]>>>> & {
  indexComplete: boolean;
};

builder.queryFields((t) => ({
  searchMessages: t.connection(
    {
      type: MessageType,
      description:
        `Messages whose text, caption or transcription contains \`text\` (1..${SEARCH_TEXT_MAX} characters, literal, case-insensitive), newest first (oldest first with oldestFirst). ` +
        `Deleted messages are left out. A one-character text needs a dialogueId or a since/until window of at most ${UNINDEXED_WINDOW_DAYS} days.`,
      args: {
        text: t.arg.string({ required: true }),
        dialogueId: t.arg.id(),
        role: t.arg({ type: RoleEnum, description: 'The sender role.' }),
        includeArchived: t.arg.boolean({
          defaultValue: false,
          description: 'Also search the messages moved out of the live record (BR-002); they have `archivedAt`.',
        }),
        oldestFirst: t.arg.boolean({
          defaultValue: false,
          description: 'Chronological order instead of newest first.',
        }),
        ...windowArgs,
      },
      resolve: async (_r, args, ctx) => {
        const dialogueId = args.dialogueId ? String(args.dialogueId) : undefined;
        const input = {
          text: args.text,
          dialogueId,
          role: args.role,
          since: args.since,
          until: args.until,
          includeArchived: args.includeArchived ?? false,
        };
        const plan = planMessageSearch({ ...input, order: args.oldestFirst ? 'oldest' : 'newest' }, new Date());
        if (dialogueId) await dialogueOrNotFound(ctx, dialogueId);
        for (const n of [args.first, args.last])
          if (n !== undefined && n !== null && (n < 0 || n > PAGE_MAX))
            throw apiError('BAD_REQUEST', `first/last must be between 0 and ${PAGE_MAX}`);
        let complete = true;
        const fetch = async ({ after, before, limit, inverted }: ResolveCursorConnectionArgs) => {
          // Backwards (last/before): the other order from `before`, handed back reversed by Pothos.
          const order = inverted ? (plan.order === 'newest' ? 'oldest' : 'newest') : plan.order;
          const page = await searchMessages(
            ctx.store,
            { ...plan, order },
            {
              limit,
              after: cursorOf(inverted ? before : after),
              before: cursorOf(inverted ? after : before),
            },
          );
          complete = page.complete;
          return page.messages;
        };
        const connection = await resolveCursorConnection(
          {
            args,
            toCursor: (m: Message) => encodeCursor(m.createdAt, m._id),
            defaultSize: PAGE_DEFAULT,
            maxSize: PAGE_MAX,
          },
          fetch,
        );
        const withFlag: SearchConnection = { ...connection, indexComplete: complete };
        return withFlag;
      },
    },
    {
      fields: (c) => ({
        indexComplete: c.boolean({
          description:
            'False while the index still folds messages stored before it existed (the backfill), or when its indexer lags by more than 10 minutes: older matches may be missing.',
          resolve: (parent) => (parent as SearchConnection).indexComplete,
        }),
      }),
    },
  ),
}));
