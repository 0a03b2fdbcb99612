// Seed 001's backgrounds over GraphQL: the library, and each dialogue's story (its background and
// that background's plot state); switching background keeps every background's own plot state.
import { builder } from '../builder.js';
import {
  BEAT_STATUSES,
  beatsWithStatus,
  freshPlot,
  plotIdOf,
  STORY_LIMITS,
  type Background,
  type PlotStep,
} from '../../src/domain/story.js';
import {
  createBackground,
  setBeatStatus,
  setDirector,
  switchBackground,
  updateBackground,
  type Story,
} from '../../src/ops/stories.js';
import { DialogueType } from './dialogue.js';

const BeatStatusEnum = builder.enumType('BeatStatus', { values: BEAT_STATUSES });

const BeatType = builder.objectRef<{ n: number; text: string }>('Beat').implement({
  fields: (t) => ({ n: t.exposeInt('n'), text: t.exposeString('text') }),
});

const BackgroundType = builder.objectRef<Background>('Background').implement({
  description: 'A world setting and a story outline of ordered beats (seed 001).',
  fields: (t) => ({
    id: t.exposeID('_id'),
    name: t.exposeString('name'),
    worldSetting: t.exposeString('worldSetting'),
    outline: t.field({ type: [BeatType], resolve: (b) => b.outline }),
    createdAt: t.field({ type: 'DateTime', resolve: (b) => b.createdAt }),
  }),
});

const StoryBeatType = builder
  .objectRef<{ n: number; text: string; status: (typeof BEAT_STATUSES)[number] }>('StoryBeat')
  .implement({
    fields: (t) => ({
      n: t.exposeInt('n'),
      text: t.exposeString('text'),
      status: t.field({ type: BeatStatusEnum, resolve: (b) => b.status }),
    }),
  });

const PlotStepType = builder.objectRef<PlotStep>('PlotStep').implement({
  description: 'One change of a beat’s status, with the messages that show it.',
  fields: (t) => ({
    n: t.exposeInt('n'),
    status: t.field({ type: BeatStatusEnum, resolve: (s) => s.status }),
    at: t.field({ type: 'DateTime', resolve: (s) => s.at }),
    by: t.exposeString('by', { description: '`director` (a reply’s marker) or `operator`.' }),
    messageIds: t.exposeStringList('messageIds'),
  }),
});

const StoryType = builder.objectRef<Story>('Story').implement({
  description: 'A dialogue’s story now: its background and that background’s plot state in this dialogue.',
  fields: (t) => ({
    background: t.field({ type: BackgroundType, resolve: (s) => s.background }),
    beats: t.field({ type: [StoryBeatType], resolve: (s) => beatsWithStatus(s.background, s.plot) }),
    noUpdateCount: t.int({
      description: 'Replies in a row without progress (the director’s fallback counts these).',
      resolve: (s) => s.plot.noUpdateCount,
    }),
    steps: t.field({ type: [PlotStepType], resolve: (s) => s.plot.steps }),
  }),
});

builder.objectField(DialogueType, 'story', (t) =>
  t.field({
    type: StoryType,
    nullable: true,
    description: 'The background this dialogue follows and its plot state; null when it follows none.',
    // Through the request's loaders: a list of dialogues reads its stories in two round trips.
    resolve: async (d, _a, ctx) => {
      if (!d.backgroundId) return null;
      const [background, plot] = await Promise.all([
        ctx.loaders.background.load(d.backgroundId),
        ctx.loaders.plot.load(plotIdOf(d._id, d.backgroundId)),
      ]);
      return background ? { background, plot: plot ?? freshPlot(d._id, background, new Date()) } : null;
    },
  }),
);

builder.objectField(DialogueType, 'director', (t) =>
  t.boolean({
    description: 'Seed 001’s director: the outline and progress markers in the context, markers moving the plot.',
    resolve: (d) => d.settings?.director === true,
  }),
);

const BACKGROUNDS_LIMIT = 200;

builder.queryFields((t) => ({
  backgrounds: t.field({
    type: [BackgroundType],
    authScopes: { viewer: true },
    description: 'Every background, newest first.',
    resolve: (_r, _a, ctx) => ctx.store.stories.listBackgrounds(BACKGROUNDS_LIMIT),
  }),
}));

builder.mutationFields((t) => ({
  createBackground: t.field({
    type: BackgroundType,
    authScopes: { operator: true },
    description: `A background: a name (≤ ${STORY_LIMITS.nameChars} characters), a world setting (≤ ${STORY_LIMITS.settingChars}) and 1–${STORY_LIMITS.beats} beats (≤ ${STORY_LIMITS.beatChars} each).`,
    args: {
      name: t.arg.string({ required: true }),
      worldSetting: t.arg.string({ required: true }),
      beats: t.arg.stringList({ required: true }),
    },
    resolve: (_r, a, ctx) =>
      createBackground(ctx.store, { name: a.name, worldSetting: a.worldSetting, beats: a.beats }, new Date()),
  }),
  updateBackground: t.field({
    type: BackgroundType,
    authScopes: { operator: true },
    description:
      'Edits a background (fields left out keep their value; checked like createBackground). Beats are numbered by position, so plot states keep applying.',
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string(),
      worldSetting: t.arg.string(),
      beats: t.arg.stringList(),
    },
    resolve: (_r, a, ctx) =>
      updateBackground(
        ctx.store,
        String(a.id),
        { name: a.name ?? undefined, worldSetting: a.worldSetting ?? undefined, beats: a.beats ?? undefined },
        new Date(),
      ),
  }),
  switchBackground: t.field({
    type: StoryType,
    nullable: true,
    authScopes: { operator: true },
    description: 'Seed 001’s switch background (null: none). Each background keeps its plot state in this dialogue.',
    args: { dialogueId: t.arg.id({ required: true }), backgroundId: t.arg.id() },
    resolve: (_r, a, ctx) =>
      switchBackground(ctx.store, String(a.dialogueId), a.backgroundId ? String(a.backgroundId) : null, new Date()),
  }),
  setDirector: t.boolean({
    authScopes: { operator: true },
    description: 'Switches the director on or off for a dialogue (a room’s too). Markers stay hidden either way.',
    args: { dialogueId: t.arg.id({ required: true }), on: t.arg.boolean({ required: true }) },
    resolve: (_r, a, ctx) => setDirector(ctx.store, String(a.dialogueId), a.on, new Date()),
  }),
  setBeatStatus: t.field({
    type: StoryType,
    authScopes: { operator: true },
    description: 'An operator sets a beat’s status in the dialogue’s current story.',
    args: {
      dialogueId: t.arg.id({ required: true }),
      n: t.arg.int({ required: true }),
      status: t.arg({ type: BeatStatusEnum, required: true }),
    },
    resolve: (_r, a, ctx) => setBeatStatus(ctx.store, String(a.dialogueId), { n: a.n, status: a.status }, new Date()),
  }),
}));
