// The config's change history: who (the operator's name), when, and each field's old → new.
import { builder } from '../builder.js';
import type { ConfigChange } from '../../src/domain/configDiff.js';
import type { ConfigHistoryEntry } from '../../src/store/configHistory.js';
import { CONFIG_HISTORY_KEEP } from '../../src/store/configHistory.js';

const ConfigChangeType = builder.objectRef<ConfigChange>('ConfigChange').implement({
  description: 'One field a config write changed (`pricing.<model>` for a model price).',
  fields: (t) => ({
    path: t.exposeString('path'),
    from: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.from }),
    to: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.to }),
  }),
});

const ConfigHistoryEntryType = builder.objectRef<ConfigHistoryEntry>('ConfigHistoryEntry').implement({
  description: 'One config write that changed something.',
  fields: (t) => ({
    id: t.exposeID('_id'),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
    by: t.exposeString('by', { nullable: true, description: "The operator's name (from their token's entry)." }),
    action: t.exposeString('action', { description: 'update or reset' }),
    version: t.exposeInt('version', { description: 'The config version this write produced.' }),
    changes: t.field({ type: [ConfigChangeType], resolve: (e) => e.changes }),
  }),
});

builder.queryFields((t) => ({
  configHistory: t.field({
    type: [ConfigHistoryEntryType],
    description: `The newest config changes first (the last ${CONFIG_HISTORY_KEEP} are kept).`,
    args: { limit: t.arg.int({ required: false }) },
    resolve: (_r, { limit }, ctx) =>
      ctx.store.configHistory.list(Math.max(1, Math.min(limit ?? CONFIG_HISTORY_KEEP, CONFIG_HISTORY_KEEP))),
  }),
}));
