// Contextual integrity (SPEC §13) as an operator sees it: the agents' relationship notes on each
// person (read like memories), an agent's held persona and the decision on it, and BR-006 for a
// person (admin only, like deleting a dialogue).
import { z } from 'zod';
import { builder } from '../builder.js';
import type { HeldPersona, RelationshipNote } from '../../src/domain/model.js';
import { resolveHeldPersona } from '../../src/ops/heldPersona.js';
import { deletePerson, type PersonDeletion } from '../../src/ops/deletePerson.js';
import { apiError } from '../errors.js';
import { AgentType, HumanType } from './participants.js';

/** Notes listed per agent at most (one per person the agent knows). */
export const RELATIONSHIP_NOTES_MAX = 100;

const RelationshipNoteType = builder.objectRef<RelationshipNote>('RelationshipNote').implement({
  description:
    "An agent's note on its relationship with one person, written from their private chats and shown only in those chats.",
  fields: (t) => ({
    id: t.exposeID('_id'),
    agentId: t.exposeID('agentId'),
    agent: t.field({ type: AgentType, nullable: true, resolve: (n, _a, ctx) => ctx.loaders.agent.load(n.agentId) }),
    humanId: t.exposeID('humanId'),
    human: t.field({ type: HumanType, nullable: true, resolve: (n, _a, ctx) => ctx.loaders.human.load(n.humanId) }),
    text: t.exposeString('text'),
    dialogueIds: t.exposeIDList('dialogueIds', { description: 'The private chats it was written from.' }),
    updatedAt: t.field({ type: 'DateTime', resolve: (n) => n.updatedAt }),
  }),
});

const HeldPersonaType = builder.objectRef<HeldPersona>('HeldPersona').implement({
  description:
    'An evolved persona of an earlier version (it may hold what people said in private), kept out of every prompt until an operator adopts or discards it.',
  fields: (t) => ({
    text: t.exposeString('text'),
    heldAt: t.field({ type: 'DateTime', resolve: (p) => p.heldAt }),
  }),
});

builder.objectFields(AgentType, (t) => ({
  heldPersona: t.field({
    type: HeldPersonaType,
    nullable: true,
    description: 'Waiting for resolveHeldPersona; null when nothing is held.',
    resolve: (a) => a.heldPersona ?? null,
  }),
  relationshipNotes: t.field({
    type: [RelationshipNoteType],
    description: `The agent's notes on the people it knows, most recently written first (1 to ${RELATIONSHIP_NOTES_MAX}).`,
    args: { first: t.arg.int({ defaultValue: 20 }) },
    resolve: (a, args, ctx) =>
      ctx.store.relationships.ofAgent(a._id, Math.min(Math.max(args.first ?? 20, 1), RELATIONSHIP_NOTES_MAX)),
  }),
}));

builder.objectFields(HumanType, (t) => ({
  relationshipNotes: t.field({
    type: [RelationshipNoteType],
    description: "Every agent's note on this person.",
    resolve: (h, _a, ctx) => ctx.store.relationships.aboutHuman(h._id),
  }),
}));

const PersonDeletionType = builder.objectRef<PersonDeletion>('DeletePersonResult').implement({
  description: 'What deleting a person removed (counts only).',
  fields: (t) => ({
    humans: t.exposeInt('humans', { description: 'The person and the identities linked to them.' }),
    dialogues: t.exposeInt('dialogues', { description: 'Their private chats, deleted with everything in them.' }),
    messages: t.exposeInt('messages', { description: 'Messages (live and archived) of those chats.' }),
    sharedMessages: t.exposeInt('sharedMessages', {
      description: 'Their messages in groups and rooms, marked deleted: no prompt shows them again.',
    }),
    memories: t.exposeInt('memories', { description: 'Memories about them or learned in their private chats.' }),
    relationshipNotes: t.exposeInt('relationshipNotes'),
    personaTexts: t.exposeInt('personaTexts', {
      description: "Agents' persona texts (evolved, earlier, held) that lost sentences naming them.",
    }),
  }),
});

const personaText = z.string().trim().min(1, 'the persona text must not be empty').max(20_000);

builder.mutationFields((t) => ({
  resolveHeldPersona: t.field({
    type: AgentType,
    description:
      "Decides on the agent's held persona: adopt (as held, or as `text` when given) makes it the evolved persona; otherwise it is discarded. Either way nothing is held afterwards.",
    args: {
      agentId: t.arg.id({ required: true }),
      adopt: t.arg.boolean({ required: true }),
      text: t.arg.string({ description: 'The text to adopt instead of the held one (adopt: true only).' }),
    },
    resolve: (_r, a, ctx) => {
      const agentId = String(a.agentId);
      if (!a.adopt) {
        if (a.text !== null && a.text !== undefined)
          throw apiError('BAD_REQUEST', 'text is only taken with adopt: true');
        return resolveHeldPersona(ctx.ops, agentId, { adopt: false }, new Date());
      }
      if (a.text === null || a.text === undefined)
        return resolveHeldPersona(ctx.ops, agentId, { adopt: true }, new Date());
      const text = personaText.safeParse(a.text);
      if (!text.success) throw apiError('BAD_REQUEST', text.error.issues[0]?.message ?? 'invalid persona text');
      return resolveHeldPersona(ctx.ops, agentId, { adopt: true, text: text.data }, new Date());
    },
  }),
  deletePerson: t.field({
    type: PersonDeletionType,
    authScopes: { admin: true },
    description:
      "BR-006 for a person and their linked identities: their private chats (with everything in them), every memory and relationship note about them, and their records are deleted; their messages in groups and rooms are marked deleted; sentences naming them leave every agent's persona texts.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => deletePerson(ctx.ops, String(a.id), new Date()),
  }),
}));
