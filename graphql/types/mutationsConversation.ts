// Operator mutations on the conversation record (seed 000's write API): open and close a turn,
// create and close a session, post a system or operator message. The work is in src/ops; these
// fields only map arguments and results. Every Mutation field needs the operator role.
import { builder } from '../builder.js';
import { openTurn, closeTurn } from '../../src/ops/turns.js';
import { closeSession, createSession } from '../../src/ops/sessions.js';
import { postMessage } from '../../src/ops/postMessage.js';
import { RoleEnum } from './enums.js';
import { TurnType } from './turn.js';
import { SessionType } from './session.js';
import { MessageType } from './message.js';

const CloseTurnStatusEnum = builder.enumType('CloseTurnStatus', {
  description: 'How an operator closes a pending turn.',
  values: { RESPONDED: { value: 'responded' }, UNRESPONDED: { value: 'unresponded' } } as const,
});

const NewSessionKindEnum = builder.enumType('NewSessionKind', {
  values: {
    DIALOGUE: {
      value: 'dialogue',
      description: "Replaces the dialogue's open session (closed as manual) as its current session.",
    },
    SELF_REFLECTION: {
      value: 'self_reflection',
      description: 'Opens beside the conversation, which carries on in its current session.',
    },
  } as const,
});

const CloseSessionReasonEnum = builder.enumType('CloseSessionReason', {
  values: {
    TIMEOUT: { value: 'timeout' },
    MANUAL: { value: 'manual' },
    TASK_COMPLETED: { value: 'task_completed' },
  } as const,
});

const PostMessageAsEnum = builder.enumType('PostMessageAs', {
  values: {
    SYSTEM: { value: 'system', description: 'Signed `system`.' },
    OPERATOR: { value: 'operator', description: 'Signed `operator:<token name>`.' },
  } as const,
});

builder.mutationFields((t) => ({
  openTurn: t.field({
    type: TurnType,
    description:
      'Opens a pending turn in an open session (one pending turn per session). The window defaults to the configured response window; the turn expires as unresponded after it. A turn the AI must answer is queued for a reply at once (it answers the dialogue’s history); one the human must answer closes with their next message.',
    args: {
      sessionId: t.arg.id({ required: true }),
      initiatorRole: t.arg({ type: RoleEnum, required: true }),
      initiatorId: t.arg.string({ required: true }),
      responderRole: t.arg({ type: RoleEnum, required: true }),
      responderId: t.arg.string({ required: true }),
      responseWindowMinutes: t.arg.int({ required: false, description: '1 to 10080 (one week).' }),
    },
    resolve: (_r, a, ctx) =>
      openTurn(
        ctx.ops,
        {
          sessionId: String(a.sessionId),
          initiator: { role: a.initiatorRole, id: a.initiatorId },
          responder: { role: a.responderRole, id: a.responderId },
          responseWindowMinutes: a.responseWindowMinutes ?? undefined,
        },
        new Date(),
      ),
  }),
  closeTurn: t.field({
    type: TurnType,
    description: 'Closes a pending turn; a responded one gets its response time. A closed turn → BAD_REQUEST.',
    args: { turnId: t.arg.id({ required: true }), status: t.arg({ type: CloseTurnStatusEnum, required: true }) },
    resolve: (_r, a, ctx) => closeTurn(ctx.ops, String(a.turnId), a.status, new Date()),
  }),
  createSession: t.field({
    type: SessionType,
    args: { dialogueId: t.arg.id({ required: true }), kind: t.arg({ type: NewSessionKindEnum, required: true }) },
    resolve: (_r, a, ctx) => createSession(ctx.ops, String(a.dialogueId), a.kind, new Date()),
  }),
  closeSession: t.field({
    type: SessionType,
    description: "Closes an open session; the dialogue's next message opens a new one. A closed session → BAD_REQUEST.",
    args: { sessionId: t.arg.id({ required: true }), reason: t.arg({ type: CloseSessionReasonEnum, required: true }) },
    resolve: (_r, a, ctx) => closeSession(ctx.ops, String(a.sessionId), a.reason, new Date()),
  }),
  postMessage: t.field({
    type: MessageType,
    description:
      "Sends a message to the dialogue's chat and records it as a system message (no AI reply follows). Checked like user input: MESSAGE_CONTENT_REQUIRED, MESSAGE_TOO_LONG. A platform refusal is recorded: delivery.state error with its code.",
    args: {
      dialogueId: t.arg.id({ required: true }),
      text: t.arg.string({ required: true }),
      as: t.arg({ type: PostMessageAsEnum, required: true }),
    },
    resolve: (_r, a, ctx) =>
      postMessage(
        ctx.ops,
        { dialogueId: String(a.dialogueId), text: a.text, as: a.as, by: ctx.viewer.name },
        new Date(),
      ),
  }),
}));
