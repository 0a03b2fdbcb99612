// Who may talk and how much anyone may spend (SPEC §14): invites, the operator's word on people
// and chats, per-person quotas, and the day's spend per person, chat, agent and deployment.
import { z } from 'zod';
import { builder } from '../builder.js';
import { found } from '../errors.js';
import { parseInput } from '../../src/ops/input.js';
import { HumanType } from './participants.js';
import { DialogueType } from './dialogue.js';
import type { AccessStanding, Invite } from '../../src/domain/access.js';
import { dayOf, type SpendDay } from '../../src/domain/spend.js';

const STANDINGS = {
  ALLOWED: { value: 'allowed', description: 'Let in, whatever the access mode.' },
  BLOCKED: { value: 'blocked', description: 'Never answered, under any mode (told at most once).' },
  DEFAULT: { value: 'default', description: "The deployment's access mode decides." },
} as const;
type StandingValue = (typeof STANDINGS)[keyof typeof STANDINGS]['value'];

export const HumanAccessEnum = builder.enumType('HumanAccess', { values: STANDINGS });
export const ChatAccessEnum = builder.enumType('ChatAccess', {
  description: 'A group let in under an allowlist (every member may talk there), shut, or left to the mode.',
  values: STANDINGS,
});

const standingOf = (v: StandingValue): AccessStanding | undefined => (v === 'default' ? undefined : v);

builder.objectFields(HumanType, (t) => ({
  access: t.field({
    type: HumanAccessEnum,
    description: "The operator's word on who may talk (SPEC §14); DEFAULT: the access mode decides.",
    resolve: (h) => h.access ?? 'default',
  }),
  dailyTokens: t.int({
    nullable: true,
    description: "This person's own daily token quota; null: limits.person_daily_tokens applies.",
    resolve: (h) => h.dailyTokens ?? null,
  }),
}));

builder.objectFields(DialogueType, (t) => ({
  access: t.field({
    type: ChatAccessEnum,
    description: 'A group let in (or shut) by an operator or a member’s /allow; DEFAULT: the access mode decides.',
    resolve: (d) => d.access ?? 'default',
  }),
}));

const InviteType = builder.objectRef<Invite & { link: string | null }>('Invite').implement({
  description: 'An invite code: people let in by `/start CODE` or the Telegram link (SPEC §14).',
  fields: (t) => ({
    code: t.exposeString('_id'),
    link: t.exposeString('link', {
      nullable: true,
      description: 'The Telegram deep link t.me/<bot>?start=<code>; null without a Telegram bot.',
    }),
    maxUses: t.exposeInt('maxUses'),
    uses: t.int({ resolve: (i) => i.usedBy.length }),
    usedBy: t.exposeStringList('usedBy', { description: 'Ids of the people it let in, in order.' }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (i) => i.expiresAt ?? null }),
    revoked: t.boolean({ resolve: (i) => i.revokedAt !== undefined }),
    createdBy: t.exposeString('createdBy'),
    createdAt: t.field({ type: 'DateTime', resolve: (i) => i.createdAt }),
  }),
});

const SpendScopeEnum = builder.enumType('SpendScope', {
  values: {
    PERSON: { value: 'person' },
    CHAT: { value: 'chat' },
    AGENT: { value: 'agent' },
    DEPLOYMENT: { value: 'deployment' },
  },
});

const SpendType = builder.objectRef<SpendDay>('Spend').implement({
  description: "One day's model spend of a person, a chat, an agent or the deployment (days in DISPLAY_TIMEZONE).",
  fields: (t) => ({
    day: t.exposeString('day'),
    scope: t.field({ type: SpendScopeEnum, resolve: (s) => s.scope }),
    subjectId: t.exposeString('subjectId', {
      description: 'The human, dialogue or agent id ("all" for the deployment).',
    }),
    tokens: t.exposeInt('tokens'),
    inputTokens: t.exposeInt('inputTokens'),
    outputTokens: t.exposeInt('outputTokens'),
    cost: t.exposeFloat('cost', { description: 'In the currency of the config pricing; 0 for unpriced models.' }),
    calls: t.exposeInt('calls'),
  }),
});

const withLink = async (invite: Invite, link: ((code: string) => Promise<string | null>) | undefined) => ({
  ...invite,
  link: link ? await link(invite._id) : null,
});

const DAY = /^\d{4}-\d{2}-\d{2}$/;

builder.queryFields((t) => ({
  invites: t.field({
    type: [InviteType],
    authScopes: { admin: true },
    description: 'Invite codes, newest first.',
    resolve: async (_r, _a, ctx) =>
      Promise.all((await ctx.store.access.listInvites()).map((i) => withLink(i, ctx.ops.inviteLink))),
  }),
  spend: t.field({
    type: [SpendType],
    authScopes: { operator: true },
    description: 'Model spend per day by person, chat, agent and the deployment, most tokens first within a day.',
    args: {
      fromDay: t.arg.string({ description: 'YYYY-MM-DD (default: today in DISPLAY_TIMEZONE).' }),
      toDay: t.arg.string({ description: 'YYYY-MM-DD (default: fromDay).' }),
      scope: t.arg({ type: SpendScopeEnum }),
    },
    resolve: (_r, a, ctx) => {
      const today = dayOf(new Date(), ctx.ops.timezone);
      const days = parseInput(z.object({ fromDay: z.string().regex(DAY), toDay: z.string().regex(DAY) }), {
        fromDay: a.fromDay ?? today,
        toDay: a.toDay ?? a.fromDay ?? today,
      });
      return ctx.store.spend.list({ ...days, ...(a.scope ? { scope: a.scope } : {}) });
    },
  }),
}));

const inviteInput = z.object({
  maxUses: z.number().int().min(1, 'maxUses must be at least 1').max(100_000),
  expiresInHours: z
    .number()
    .int()
    .min(1, 'expiresInHours must be at least 1')
    .max(24 * 366)
    .optional(),
});

builder.mutationFields((t) => ({
  createInvite: t.field({
    type: InviteType,
    authScopes: { admin: true },
    description: 'A new invite code for maxUses people, valid for expiresInHours (default: until revoked).',
    args: { maxUses: t.arg.int({ required: true }), expiresInHours: t.arg.int() },
    resolve: async (_r, a, ctx) => {
      const o = parseInput(inviteInput, { maxUses: a.maxUses, expiresInHours: a.expiresInHours ?? undefined });
      const at = new Date();
      const expiresAt = o.expiresInHours ? new Date(at.getTime() + o.expiresInHours * 3_600_000) : undefined;
      const invite = await ctx.store.access.createInvite({
        maxUses: o.maxUses,
        ...(expiresAt ? { expiresAt } : {}),
        createdBy: ctx.viewer.name,
        at,
      });
      return withLink(invite, ctx.ops.inviteLink);
    },
  }),
  revokeInvite: t.field({
    type: InviteType,
    authScopes: { admin: true },
    description: 'The code lets nobody else in (people it let in stay in).',
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) =>
      withLink(found(await ctx.store.access.revokeInvite(a.code, new Date()), 'invite', a.code), ctx.ops.inviteLink),
  }),
  setHumanAccess: t.field({
    type: HumanType,
    authScopes: { admin: true },
    description: 'Lets a person in (ALLOWED), shuts them out under any mode (BLOCKED), or leaves it to the mode.',
    args: { humanId: t.arg.id({ required: true }), access: t.arg({ type: HumanAccessEnum, required: true }) },
    resolve: async (_r, a, ctx) =>
      found(
        await ctx.store.access.setHumanAccess(String(a.humanId), standingOf(a.access), new Date()),
        'human',
        a.humanId,
      ),
  }),
  setHumanQuota: t.field({
    type: HumanType,
    authScopes: { admin: true },
    description: "A person's own daily token quota (0: no limit); null: limits.person_daily_tokens applies.",
    args: { humanId: t.arg.id({ required: true }), dailyTokens: t.arg.int() },
    resolve: async (_r, a, ctx) => {
      const { dailyTokens } = parseInput(
        z.object({ dailyTokens: z.number().int().min(0).max(1_000_000_000).optional() }),
        {
          dailyTokens: a.dailyTokens ?? undefined,
        },
      );
      const human = await ctx.store.access.setHumanQuota(String(a.humanId), dailyTokens, new Date());
      return found(human, 'human', a.humanId);
    },
  }),
  setChatAccess: t.field({
    type: DialogueType,
    authScopes: { admin: true },
    description:
      'Lets a group in under an allowlist (every member may talk there), shuts it, or leaves it to the mode.',
    args: { dialogueId: t.arg.id({ required: true }), access: t.arg({ type: ChatAccessEnum, required: true }) },
    resolve: async (_r, a, ctx) => {
      const dialogue = await ctx.store.access.setChatAccess(String(a.dialogueId), standingOf(a.access), new Date());
      return found(dialogue, 'dialogue', a.dialogueId);
    },
  }),
}));
