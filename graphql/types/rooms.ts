// Rooms (SPEC §8): several agents in one group chat taking turns by rounds. Operators create
// agents and rooms, give an agent its own bot (the token is checked with the platform and never
// returned), pause and resume a room, choose its host, and read its rounds: who was asked, who
// answered, who skipped and why.
import { builder } from '../builder.js';
import type { Agent, AgentBinding } from '../../src/domain/model.js';
import { ANSWER_TIMEOUT_RANGE, type Room, type RoomMember, type RoomRound } from '../../src/domain/room.js';
import { createRoom } from '../../src/rooms/createRoom.js';
import {
  addRoomMember,
  announce,
  removeRoomMember,
  setRoomHost,
  setRoomStatus,
  updateRoom,
} from '../../src/rooms/roomOps.js';
import { removeAgentBot, setAgentBot } from '../../src/ops/agentBots.js';
import { createSeat, type NewSeat } from '../../src/rooms/createSeat.js';
import { parseInput } from '../../src/ops/input.js';
import { exportWithLink } from '../../src/ops/exportLinks.js';
import { newId } from '../../src/domain/ids.js';
import {
  applyModelSettingsPatch,
  MAX_OUTPUT_TOKENS_RANGE,
  MODEL_NAME_MAX_CHARS,
  modelSettingsPatchSchema,
  TEMPERATURE_RANGE,
} from '../../src/domain/agentModel.js';
import { apiError } from '../errors.js';
import { recordById } from '../byId.js';
import { PlatformEnum } from './enums.js';
import { AgentType } from './participants.js';
import { DialogueType } from './dialogue.js';
import { DialogueExportType, ExportFormatEnum } from './mutationsDialogue.js';
import { z } from 'zod';

const RoomModeEnum = builder.enumType('RoomMode', {
  values: { DEFAULT: { value: 'default' }, HOST: { value: 'host' } } as const,
});
const RoomStatusEnum = builder.enumType('RoomStatus', { values: ['active', 'paused'] as const });
const SkipReasonEnum = builder.enumType('SkipReason', { values: ['chose', 'timeout', 'left', 'failed'] as const });

const RoomMemberType = builder.objectRef<RoomMember>('RoomMember').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: '`agent` or `human`.' }),
    id: t.exposeID('id'),
    isHost: t.boolean({ resolve: (m) => m.isHost === true }),
    introduction: t.exposeString('introduction', { nullable: true }),
    joinedAt: t.field({ type: 'DateTime', resolve: (m) => m.joinedAt }),
    agent: t.field({
      type: AgentType,
      nullable: true,
      resolve: (m, _a, ctx) => (m.kind === 'agent' ? ctx.loaders.agent.load(m.id) : null),
    }),
  }),
});

const RoundAnswerType = builder.objectRef<RoomRound['answers'][number]>('RoundAnswer').implement({
  fields: (t) => ({
    agentId: t.exposeID('agentId'),
    messageId: t.exposeID('messageId'),
    at: t.field({ type: 'DateTime', resolve: (a) => a.at }),
  }),
});

const RoundSkipType = builder.objectRef<RoomRound['skips'][number]>('RoundSkip').implement({
  fields: (t) => ({
    agentId: t.exposeID('agentId'),
    reason: t.expose('reason', { type: SkipReasonEnum }),
    at: t.field({ type: 'DateTime', resolve: (s) => s.at }),
  }),
});

const RoundType = builder.objectRef<RoomRound>('Round').implement({
  description: 'One round of a room: the agents asked in order, and how each ask ended.',
  fields: (t) => ({
    id: t.exposeID('_id'),
    seq: t.exposeInt('seq'),
    mode: t.expose('mode', { type: RoomModeEnum }),
    queue: t.exposeIDList('queue', { description: 'Agents in asking order.' }),
    index: t.exposeInt('index', { description: 'Position of the agent asked now (queue length: nobody left).' }),
    mustAnswer: t.exposeIDList('mustAnswer', { description: '@mentioned agents: they cannot skip.' }),
    asked: t.exposeIDList('asked'),
    askTurnIds: t.idList({ resolve: (r) => r.asks.map((a) => a.turnId) }),
    answers: t.field({ type: [RoundAnswerType], resolve: (r) => r.answers }),
    skips: t.field({ type: [RoundSkipType], resolve: (r) => r.skips }),
    completed: t.exposeBoolean('completed'),
    endedBy: t.exposeString('endedBy', { nullable: true }),
    triggerMessageId: t.exposeID('triggerMessageId'),
    startedAt: t.field({ type: 'DateTime', resolve: (r) => r.startedAt }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.completedAt ?? null }),
  }),
});

const RoomType = builder.objectRef<Room>('Room').implement({
  fields: (t) => ({
    id: t.exposeID('_id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    mode: t.expose('mode', { type: RoomModeEnum }),
    status: t.expose('status', { type: RoomStatusEnum }),
    userParticipation: t.exposeBoolean('userParticipation'),
    answerTimeoutSeconds: t.exposeInt('answerTimeoutSeconds', {
      nullable: true,
      description: "This room's answer deadline in seconds; null: the config's room_answer_timeout_seconds.",
    }),
    hasPassword: t.boolean({ resolve: (r) => r.passwordHash !== undefined }),
    platform: t.field({ type: PlatformEnum, resolve: (r) => r.chat.platform }),
    chatId: t.string({ resolve: (r) => r.chat.chatId }),
    members: t.field({ type: [RoomMemberType], resolve: (r) => r.members }),
    announcement: t.string({ nullable: true, resolve: (r) => r.announcement?.text ?? null }),
    dialogue: t.field({
      type: DialogueType,
      nullable: true,
      resolve: (r, _a, ctx) => ctx.loaders.dialogue.load(r.dialogueId),
    }),
    currentRound: t.field({ type: RoundType, nullable: true, resolve: (r, _a, ctx) => ctx.store.rooms.current(r) }),
    rounds: t.field({
      type: [RoundType],
      description: 'The latest rounds, oldest first.',
      args: { last: t.arg.int({ defaultValue: 20 }) },
      resolve: (r, a, ctx) => {
        const last = Math.min(Math.max(a.last ?? 20, 1), 100);
        return ctx.store.rooms.rounds(r._id, Math.max(1, r.roundSeq - last + 1), r.roundSeq);
      },
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (r) => r.updatedAt }),
  }),
});

const AgentBindingResult = builder.objectRef<AgentBinding>('AgentAccount').implement({
  description: 'The platform account an agent posts under (never its token).',
  fields: (t) => ({
    platform: t.expose('platform', { type: PlatformEnum }),
    userId: t.exposeString('userId'),
    username: t.exposeString('username', { nullable: true }),
  }),
});

const NewSeatType = builder.objectRef<NewSeat>('NewSeat').implement({
  description: 'An external agent’s seat: its token (and signing key) are shown this once.',
  fields: (t) => ({
    seatId: t.exposeID('seatId'),
    token: t.exposeString('token', { description: 'Bearer token for /mcp and the webhook-agent endpoints.' }),
    signingKey: t.exposeString('signingKey', {
      nullable: true,
      description: 'Webhook seats: the HMAC-SHA256 key of X-Rainbow-Signature.',
    }),
  }),
});

const SeatKindEnum = builder.enumType('SeatKind', {
  values: { MCP: { value: 'mcp' }, WEBHOOK: { value: 'webhook' } } as const,
});

const CreateRoomInput = builder.inputType('CreateRoomInput', {
  fields: (t) => ({
    platform: t.field({ type: PlatformEnum, required: true }),
    chatId: t.string({
      description:
        'The platform chat (a Telegram group, a Discord channel). Left out on `web`: a new web conversation is opened for the room.',
    }),
    threadId: t.string(),
    name: t.string({ required: true }),
    description: t.string(),
    mode: t.field({ type: RoomModeEnum, required: true }),
    agentIds: t.idList({ required: true, description: 'Members in round-robin order.' }),
    hostId: t.id({ description: 'Host mode: the host (default: the first agent).' }),
    userParticipation: t.boolean({ defaultValue: true }),
    password: t.string({ description: 'Stored as a scrypt hash.' }),
    lio: t.boolean({ description: 'One human with several of their own agents: the dialogue is a lio_group.' }),
    answerTimeoutSeconds: t.int({
      description: `Seconds an asked agent has (${ANSWER_TIMEOUT_RANGE.min}–${ANSWER_TIMEOUT_RANGE.max}); left out: the config's.`,
    }),
  }),
});

const roomInput = z.object({
  chatId: z.string().trim().min(1).max(100),
  threadId: z.string().trim().min(1).max(100).optional(),
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(200).optional(),
  password: z.string().min(4).max(200).optional(),
  answerTimeoutSeconds: z.number().int().min(ANSWER_TIMEOUT_RANGE.min).max(ANSWER_TIMEOUT_RANGE.max).optional(),
});

const agentInput = z.object({
  name: z.string().trim().min(1).max(64),
  basePersona: z.string().trim().min(1).max(20_000),
  aliases: z.array(z.string().trim().min(1).max(64)).max(10).optional(),
  introduction: z.string().trim().min(1).max(500).optional(),
  modelSettings: modelSettingsPatchSchema.optional(),
});

const agentPatch = agentInput.partial();

const AgentModelSettingsInput = builder.inputType('AgentModelSettingsInput', {
  description:
    "An agent's own model settings: a value sets one, null clears it (the deployment's applies), left out: unchanged.",
  fields: (t) => ({
    name: t.string({
      description: `Model name (1–${MODEL_NAME_MAX_CHARS} characters: letters, digits, . _ : / @ + -).`,
    }),
    temperature: t.float({ description: `Sampling temperature, ${TEMPERATURE_RANGE.min}–${TEMPERATURE_RANGE.max}.` }),
    maxOutputTokens: t.int({
      description: `Longest answer in tokens, ${MAX_OUTPUT_TOKENS_RANGE.min}–${MAX_OUTPUT_TOKENS_RANGE.max} (the range of limits.max_reply_tokens).`,
    }),
  }),
});

const orNull = <T>(v: T | null | undefined): T | undefined => v ?? undefined;

builder.queryFields((t) => ({
  rooms: t.field({
    type: [RoomType],
    description: 'Rooms, newest first (at most 200).',
    resolve: (_r, _a, ctx) => ctx.store.rooms.list(200),
  }),
}));

builder.mutationFields((t) => ({
  createAgent: t.field({
    type: AgentType,
    description: 'A new agent (a room member) with its own persona.',
    args: {
      name: t.arg.string({ required: true }),
      basePersona: t.arg.string({ required: true }),
      aliases: t.arg.stringList(),
      introduction: t.arg.string({ description: 'How it presents itself to a room (≤ 500 characters).' }),
      modelSettings: t.arg({ type: AgentModelSettingsInput, description: "Left out: the deployment's." }),
    },
    resolve: async (_r, a, ctx) => {
      const { modelSettings, ...input } = parseInput(agentInput, {
        ...a,
        aliases: orNull(a.aliases),
        introduction: orNull(a.introduction),
        modelSettings: orNull(a.modelSettings),
      });
      const at = new Date();
      const settings = modelSettings ? applyModelSettingsPatch(undefined, modelSettings) : undefined;
      const agent: Agent = await ctx.store.participants.createAgent(
        { _id: newId('agt', at), ...input, ...(settings ? { modelSettings: settings } : {}) },
        at,
      );
      return { ...agent, recentTurns: [] };
    },
  }),
  updateAgent: t.field({
    type: AgentType,
    description:
      "Edits an agent's name, base persona, aliases, room introduction or model settings (left out: unchanged). Bad input fails with BAD_REQUEST naming the field and changes nothing.",
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string(),
      basePersona: t.arg.string(),
      aliases: t.arg.stringList(),
      introduction: t.arg.string(),
      modelSettings: t.arg({
        type: AgentModelSettingsInput,
        description: 'Only the settings given change; one set to null is cleared.',
      }),
    },
    resolve: async (_r, a, ctx) => {
      const patch = parseInput(agentPatch, {
        name: orNull(a.name),
        basePersona: orNull(a.basePersona),
        aliases: orNull(a.aliases),
        introduction: orNull(a.introduction),
        modelSettings: orNull(a.modelSettings),
      });
      const agent = await ctx.store.participants.updateAgent(String(a.id), patch, new Date());
      if (!agent) throw apiError('NOT_FOUND', `no agent with id ${String(a.id)}`);
      return agent;
    },
  }),
  setAgentBot: t.field({
    type: AgentBindingResult,
    authScopes: { admin: true },
    description: 'Gives an agent its own bot: the token is checked with the platform, stored apart and never returned.',
    args: {
      agentId: t.arg.id({ required: true }),
      platform: t.arg({ type: PlatformEnum, required: true }),
      token: t.arg.string({ required: true }),
    },
    resolve: (_r, a, ctx) =>
      setAgentBot(
        { store: ctx.store, accounts: ctx.ops.accounts },
        { agentId: String(a.agentId), platform: a.platform, token: a.token },
        new Date(),
      ),
  }),
  removeAgentBot: t.field({
    type: AgentType,
    authScopes: { admin: true },
    description: "Takes an agent's own bot away: its token is deleted and the agent no longer posts under it.",
    args: { agentId: t.arg.id({ required: true }), platform: t.arg({ type: PlatformEnum, required: true }) },
    resolve: async (_r, a, ctx) => {
      const now = new Date();
      await removeAgentBot(ctx.store, { agentId: String(a.agentId), platform: a.platform }, now);
      const agent = await ctx.store.participants.getAgent(String(a.agentId));
      if (!agent) throw apiError('NOT_FOUND', `no agent with id ${String(a.agentId)}`);
      return agent;
    },
  }),
  createRoom: t.field({
    type: RoomType,
    args: { input: t.arg({ type: CreateRoomInput, required: true }) },
    resolve: (_r, { input }, ctx) => {
      const checked = parseInput(roomInput, {
        chatId: input.chatId ?? (input.platform === 'web' ? newId('conv') : undefined),
        threadId: orNull(input.threadId),
        name: input.name,
        description: orNull(input.description),
        password: orNull(input.password),
        answerTimeoutSeconds: orNull(input.answerTimeoutSeconds),
      });
      return createRoom(
        ctx.store,
        {
          chat: {
            platform: input.platform,
            chatId: checked.chatId,
            ...(checked.threadId ? { threadId: checked.threadId } : {}),
          },
          name: checked.name,
          ...(checked.description ? { description: checked.description } : {}),
          mode: input.mode,
          agentIds: input.agentIds.map(String),
          ...(input.hostId ? { hostId: String(input.hostId) } : {}),
          userParticipation: input.userParticipation ?? true,
          ...(checked.password ? { password: checked.password } : {}),
          ...(input.lio ? { lio: true } : {}),
          ...(checked.answerTimeoutSeconds !== undefined ? { answerTimeoutSeconds: checked.answerTimeoutSeconds } : {}),
        },
        new Date(),
      );
    },
  }),
  createAgentSeat: t.field({
    type: NewSeatType,
    authScopes: { admin: true },
    description: 'A seat for an external agent (MCP, or a webhook the room POSTs agent_turn events to).',
    args: {
      roomId: t.arg.id({ required: true }),
      kind: t.arg({ type: SeatKindEnum, required: true }),
      webhookUrl: t.arg.string(),
    },
    resolve: (_r, a, ctx) =>
      createSeat(ctx.store, { roomId: String(a.roomId), kind: a.kind, webhookUrl: orNull(a.webhookUrl) }, new Date()),
  }),
  updateRoom: t.field({
    type: RoomType,
    description:
      'Name, description, mode, user participation, answer deadline (seconds an asked agent has, 5–3600); a change applies from the next ask.',
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string(),
      description: t.arg.string(),
      mode: t.arg({ type: RoomModeEnum }),
      userParticipation: t.arg.boolean(),
      answerTimeoutSeconds: t.arg.int(),
    },
    resolve: (_r, a, ctx) => {
      const checked = parseInput(
        z.object({
          name: z.string().trim().min(1).max(100).optional(),
          description: z.string().trim().max(200).optional(),
          answerTimeoutSeconds: z.number().int().min(ANSWER_TIMEOUT_RANGE.min).max(ANSWER_TIMEOUT_RANGE.max).optional(),
        }),
        {
          name: orNull(a.name),
          description: orNull(a.description),
          answerTimeoutSeconds: orNull(a.answerTimeoutSeconds),
        },
      );
      return updateRoom(
        ctx.store,
        String(a.id),
        {
          ...checked,
          ...(a.mode ? { mode: a.mode } : {}),
          ...(a.userParticipation !== null && a.userParticipation !== undefined
            ? { userParticipation: a.userParticipation }
            : {}),
        },
        new Date(),
      );
    },
  }),
  addRoomMember: t.field({
    type: RoomType,
    description: 'An agent of this deployment joins as the last member (asked last in the next rounds).',
    args: { id: t.arg.id({ required: true }), agentId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => addRoomMember(ctx.store, String(a.id), String(a.agentId), new Date()),
  }),
  removeRoomMember: t.field({
    type: RoomType,
    description: 'The member leaves; if it is being asked now it is skipped (reason LEFT) and the round goes on.',
    args: { id: t.arg.id({ required: true }), memberId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => removeRoomMember(ctx.ops, String(a.id), String(a.memberId), new Date()),
  }),
  postRoomAnnouncement: t.field({
    type: RoomType,
    description: 'Kept on the room and posted in its chat as a system message.',
    args: { id: t.arg.id({ required: true }), text: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => announce(ctx.ops, { roomId: String(a.id), text: a.text, by: ctx.viewer.name }, new Date()),
  }),
  exportRoom: t.field({
    type: DialogueExportType,
    description:
      'seed 002 export_chat_history: the room’s conversation as people saw it (invisible skips left out), as Markdown or PDF.',
    args: { id: t.arg.id({ required: true }), format: t.arg({ type: ExportFormatEnum, required: true }) },
    resolve: async (_r, a, ctx) => {
      const room = await ctx.store.rooms.get(String(a.id));
      if (!room) throw apiError('ROOM_NOT_FOUND', `no room with id ${String(a.id)}`);
      return exportWithLink(ctx.ops, {
        dialogueId: room.dialogueId,
        format: a.format,
        visibleOnly: true,
        now: new Date(),
        baseUrl: ctx.baseUrl,
      });
    },
  }),
  pauseRoom: t.field({
    type: RoomType,
    description: 'No agent is asked while paused; the round in progress ends (kept in history).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => setRoomStatus(ctx.store, String(id), 'paused', new Date()),
  }),
  resumeRoom: t.field({
    type: RoomType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => setRoomStatus(ctx.store, String(id), 'active', new Date()),
  }),
  setRoomHost: t.field({
    type: RoomType,
    args: { id: t.arg.id({ required: true }), memberId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => setRoomHost(ctx.store, String(a.id), String(a.memberId), new Date()),
  }),
}));

recordById('room', RoomType, (ctx, id) => ctx.store.rooms.get(id));
