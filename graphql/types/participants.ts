// Humans and agents as an operator needs them: identities, tone, the persona card a turn would
// build, a human's dialogues, an agent's personas and its sessions. Platform tokens live in the
// environment, never on these records, so nothing here can leak them.
import { builder } from '../builder.js';
import type {
  Agent,
  AgentBinding,
  AgentModelSettings,
  Dialogue,
  Human,
  PlatformIdentity,
  Session,
  ToneState,
} from '../../src/domain/model.js';
import { DEFAULT_AGENT_ID, type AgentEvolution } from '../../src/store/participants.js';
import type { UserPersonaCard } from '../../src/persona/userPersonaCard.js';
import type { CommunicationStyle } from '../../src/persona/communicationStyle.js';
import { renderPersonaCard } from '../../src/persona/userPersonaCard.js';
import { currentPersonaCard } from '../../src/persona/currentPersonaCard.js';
import { childConnection, keysetConnection } from '../pagination.js';
import { AGENT_SESSION_DIALOGUES } from '../loaders.js';
import { found } from '../errors.js';
import { recordById } from '../byId.js';
import { PlatformEnum } from './enums.js';
import { DialogueType } from './dialogue.js';
import { SessionType } from './session.js';
import { dialogueFilter, dialogueFilterArgs, sessionFilter, sessionFilterArgs } from './queryFilters.js';

const PlatformIdentityType = builder.objectRef<PlatformIdentity>('PlatformIdentity').implement({
  fields: (t) => ({
    platform: t.expose('platform', { type: PlatformEnum }),
    userId: t.exposeString('userId'),
    username: t.exposeString('username', { nullable: true }),
    displayName: t.exposeString('displayName', { nullable: true }),
  }),
});

const ToneScoresType = builder.objectRef<ToneState['scores']>('ToneScores').implement({
  description: 'Decayed lexicon scores per emotion.',
  fields: (t) => ({
    anxiety: t.exposeFloat('anxiety'),
    excitement: t.exposeFloat('excitement'),
    confusion: t.exposeFloat('confusion'),
    trust: t.exposeFloat('trust'),
    sadness: t.exposeFloat('sadness'),
    anger: t.exposeFloat('anger'),
  }),
});

const ToneStateType = builder.objectRef<ToneState>('ToneState').implement({
  description: 'The emotional tone carried into the human’s next turn.',
  fields: (t) => ({
    template: t.exposeString('template', {
      description: 'The seed 003 guidance template it maps to (high_anxiety, neutral, …).',
    }),
    scores: t.field({ type: ToneScoresType, resolve: (s) => s.scores }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.updatedAt }),
  }),
});

const CommunicationStyleType = builder.objectRef<CommunicationStyle>('CommunicationStyle').implement({
  fields: (t) => ({
    language: t.exposeString('language'),
    length: t.exposeString('length'),
    emoji: t.exposeString('emoji'),
    formality: t.exposeString('formality'),
  }),
});

const PersonaCardType = builder.objectRef<UserPersonaCard>('UserPersonaCard').implement({
  description:
    'Seed 003’s user persona card, built as the next turn would build it (memories by importance, not recalled).',
  fields: (t) => ({
    name: t.exposeString('name'),
    communicationStyle: t.field({
      type: CommunicationStyleType,
      nullable: true,
      resolve: (c) => c.communicationStyle ?? null,
    }),
    concerns: t.exposeStringList('concerns'),
    preferences: t.exposeStringList('preferences'),
    visits: t.exposeInt('visits', { description: 'Sessions the human has had with the agent.' }),
    lastTopic: t.exposeString('lastTopic', { nullable: true }),
    emotionalState: t.exposeString('emotionalState'),
    text: t.string({
      description: 'The card as the prompt shows it.',
      resolve: (c) => renderPersonaCard(c, c.communicationStyle?.language === 'zh' ? 'zh' : 'en'),
    }),
  }),
});

export const HumanType = builder.objectRef<Human>('Human').implement({
  fields: (t) => ({
    id: t.exposeID('_id'),
    displayName: t.exposeString('displayName'),
    identities: t.field({ type: [PlatformIdentityType], resolve: (h) => h.identities }),
    tone: t.field({ type: ToneStateType, nullable: true, resolve: (h) => h.tone ?? null }),
    createdAt: t.field({ type: 'DateTime', resolve: (h) => h.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (h) => h.updatedAt }),
    dialogues: t.connection({
      type: DialogueType,
      description: 'Dialogues the human takes part in, most recently active first.',
      args: dialogueFilterArgs,
      resolve: (h, args, ctx) =>
        childConnection<Dialogue>(
          ctx.loaders,
          {
            collection: 'dialogues',
            parentField: 'humanIds',
            parentId: h._id,
            filter: dialogueFilter(args),
            field: 'lastActivityAt',
            direction: -1,
          },
          args,
        ),
    }),
    personaCard: t.field({
      type: PersonaCardType,
      description: 'Several reads per human: ask for it on one human, not on a long list.',
      args: { agentId: t.arg.id({ description: 'The agent whose view of the human (default: the default agent).' }) },
      resolve: async (h, { agentId }, ctx) => {
        const id = agentId ? String(agentId) : DEFAULT_AGENT_ID;
        found(await ctx.loaders.agent.load(id), 'agent', id);
        return currentPersonaCard(ctx.store, h, id);
      },
    }),
  }),
});

const AgentBindingType = builder.objectRef<AgentBinding>('AgentBinding').implement({
  description: 'The platform account an agent speaks through (ids only; tokens are never stored here).',
  fields: (t) => ({
    platform: t.expose('platform', { type: PlatformEnum }),
    userId: t.exposeString('userId'),
    username: t.exposeString('username', { nullable: true }),
    avatarUrl: t.exposeString('avatarUrl', { nullable: true }),
  }),
});

const AgentModelSettingsType = builder.objectRef<AgentModelSettings>('AgentModelSettings').implement({
  description:
    "What the agent's replies are generated with where it differs from the deployment; a null field is the deployment's (LLM_MODEL, the service's temperature, `limits.max_reply_tokens`). Background tasks always use the deployment's model.",
  fields: (t) => ({
    name: t.exposeString('name', { nullable: true, description: 'Model name as the LLM service knows it.' }),
    temperature: t.exposeFloat('temperature', { nullable: true, description: 'Sampling temperature, 0–2.' }),
    maxOutputTokens: t.exposeInt('maxOutputTokens', { nullable: true, description: 'Longest answer, in tokens.' }),
  }),
});

type PersonaVersion = NonNullable<AgentEvolution['evolvedPersonaHistory']>[number];
const PersonaVersionType = builder.objectRef<PersonaVersion>('EvolvedPersonaVersion').implement({
  fields: (t) => ({
    text: t.exposeString('text'),
    from: t.field({ type: 'DateTime', nullable: true, resolve: (v) => v.from ?? null }),
    replacedAt: t.field({ type: 'DateTime', resolve: (v) => v.replacedAt }),
  }),
});

export const AgentType = builder.objectRef<Agent & AgentEvolution>('Agent').implement({
  fields: (t) => ({
    id: t.exposeID('_id'),
    name: t.exposeString('name'),
    aliases: t.stringList({ resolve: (a) => a.aliases ?? [] }),
    capabilities: t.stringList({
      description: 'What an external agent said it can do when it registered (seed 002); empty for built-in agents.',
      resolve: (a) => a.capabilities ?? [],
    }),
    bindings: t.field({ type: [AgentBindingType], resolve: (a) => a.bindings ?? [] }),
    introduction: t.exposeString('introduction', {
      nullable: true,
      description: 'How it presents itself to a room (seed 002 `introduce`).',
    }),
    avatarUrl: t.exposeString('avatarUrl', { nullable: true }),
    modelSettings: t.field({
      type: AgentModelSettingsType,
      description: "Its own model, temperature and longest answer (each null: the deployment's).",
      resolve: (a) => a.modelSettings ?? {},
    }),
    isDefault: t.exposeBoolean('isDefault'),
    basePersona: t.exposeString('basePersona'),
    evolvedPersona: t.exposeString('evolvedPersona', { nullable: true }),
    evolvedPersonaAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.evolvedPersonaAt ?? null }),
    evolvedPersonaHistory: t.field({
      type: [PersonaVersionType],
      description: 'Earlier evolved personas, oldest first.',
      resolve: (a) => a.evolvedPersonaHistory ?? [],
    }),
    repliesSinceEvolve: t.int({
      description: 'Replies since the persona last evolved.',
      resolve: (a) => a.repliesSinceEvolve ?? 0,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (a) => a.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (a) => a.updatedAt }),
    sessions: t.connection({
      type: SessionType,
      description: `Sessions of the dialogues the agent takes part in (its ${AGENT_SESSION_DIALOGUES} most recently active), newest first; filter by kind.`,
      args: sessionFilterArgs,
      resolve: async (a, args, ctx) => {
        const filter = sessionFilter(args);
        // The dialogue ids are batched across agents; the sessions page is the agent's own.
        const dialogueIds = await ctx.loaders.agentDialogueIds.load(a._id);
        const scope = { ...filter, dialogueId: { $in: dialogueIds } };
        return keysetConnection<Session>(ctx.store.pages.of('sessions'), scope, 'startedAt', -1, args);
      },
    }),
  }),
});

/** Agents are few (one per persona); the list is not paginated but is capped. */

builder.queryFields((t) => ({
  humans: t.connection({
    type: HumanType,
    description: 'Humans, newest first.',
    args: { platform: t.arg({ type: PlatformEnum, description: 'Only humans with an identity on this platform.' }) },
    resolve: (_r, args, ctx) =>
      keysetConnection<Human>(
        ctx.store.pages.of('humans'),
        args.platform ? { 'identities.platform': args.platform } : {},
        'createdAt',
        -1,
        args,
      ),
  }),
  agents: t.connection({
    type: AgentType,
    description: 'Agents, oldest first.',
    resolve: (_r, args, ctx) => keysetConnection<Agent>(ctx.store.pages.of('agents'), {}, 'createdAt', 1, args),
  }),
}));

recordById('human', HumanType, (ctx, id) => ctx.loaders.human.load(id));
recordById('agent', AgentType, (ctx, id) => ctx.loaders.agent.load(id));
