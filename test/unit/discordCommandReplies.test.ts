// A bot's answer to a slash command (issue 35 D6, a real capture: type 20, "/parliament vote"
// answered by Cheese Bot) is seen by everyone in the channel, so it reaches the core as another
// bot's message: kept as context, never answered. Context-menu answers (type 23) likewise;
// system notices (a member joining, a pin…) are still ignored.
import { MessageType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMessage } from '../../src/transcript/renderMessage.js';
import { activation } from '../../src/domain/activation.js';
import type { Message } from '../../src/domain/model.js';
import { addressCheck, isOwnEcho } from '../../src/ingest/addressing.js';
import type { InboundEvent, InboundMessage } from '../../src/ingest/inboundEvent.js';
import { message, snowflake } from '../fixtures/discordDispatches.js';
import { readCapture, startCaptureRig, type CaptureRig } from '../support/discordCaptureRig.js';

const capture = readCapture('dc-capture-type20-command-response.json');
const CHEESE_BOT = '910254320740610069';

let rig: CaptureRig;
beforeAll(async () => {
  rig = await startCaptureRig(capture);
}, 30_000);
afterAll(async () => {
  await rig.stop();
});

const asMessage = (e: InboundEvent): InboundMessage => {
  if (e.kind !== 'message') throw new Error(`not a message: ${e.kind}`);
  return e;
};

/** Whether the core would answer it, even in a group that asked to be answered always. */
const answered = (e: InboundMessage) =>
  activation(addressCheck(e, { agent: { name: 'Cheese', aliases: [] }, dialogue: { settings: { answerAll: true } } }));

/** The message as the core stores it for context, read by the model. */
const read = (e: InboundMessage): string =>
  renderMessage(
    {
      _id: 'msg_1',
      dialogueId: 'dlg_1',
      sessionId: 'ses_1',
      senderRole: 'human',
      senderId: 'hum_1',
      contentType: 'text',
      content: e.text ?? '',
      contentMeta: { senderName: e.sender.displayName },
      mentions: [],
      visible: true,
      createdAt: new Date(),
      updatedAt: new Date(),
    } as unknown as Message,
    { groupChat: true, agentName: 'Aria' },
  );

describe('a bot’s answer to a slash command', () => {
  it('reaches the core as the bot’s message, with its text', async () => {
    rig.fake.dispatch('MESSAGE_CREATE', capture.d);
    const e = asMessage(await rig.eventFor(capture.d.id));
    expect(e).toMatchObject({
      platform: 'discord',
      chat: { chatId: capture.d.channel_id, kind: 'group' },
      sender: {
        userId: CHEESE_BOT,
        isBot: true,
        username: 'Cheese Bot',
        displayName: 'Cheese Bot',
        webhookId: CHEESE_BOT,
        applicationId: CHEESE_BOT,
      },
      text: 'Vote for your candidate:',
      attachments: [],
    });
    expect(read(e)).toBe('Cheese Bot: Vote for your candidate:');
  });

  it('is kept as another bot’s message: not our echo, never answered', async () => {
    const e = asMessage(await rig.eventFor(capture.d.id));
    expect(isOwnEcho(e)).toBe(false);
    expect(answered(e)).toEqual({ answer: false, why: 'other_bot' });
  });

  it('carries its embed cards as other bots’ posts do', async () => {
    const id = snowflake();
    const card = {
      type: 'rich',
      title: 'Results',
      description: 'Alan leads',
      fields: [{ name: 'Votes', value: '12' }],
    };
    rig.fake.dispatch('MESSAGE_CREATE', { ...capture.d, id, content: '', embeds: [card] });
    const e = asMessage(await rig.eventFor(id));
    expect(e.text).toBe('[card: Results\nAlan leads\nVotes: 12]');
    expect(answered(e).answer).toBe(false);
  });

  it('an edit of it (a deferred answer filled in) reaches the core as an edit', async () => {
    const edited = { ...capture.d, content: 'Vote closed: Alan wins', edited_timestamp: new Date().toISOString() };
    rig.fake.dispatch('MESSAGE_UPDATE', edited);
    const e = await rig.eventFor(capture.d.id, 'edit');
    expect(e).toMatchObject({ kind: 'edit', text: 'Vote closed: Alan wins', sender: { isBot: true } });
  });

  it('a context-menu command’s answer (type 23) is kept the same way', async () => {
    const id = snowflake();
    rig.fake.dispatch('MESSAGE_CREATE', { ...capture.d, id, type: MessageType.ContextMenuCommand });
    const e = asMessage(await rig.eventFor(id));
    expect(e).toMatchObject({ sender: { userId: CHEESE_BOT, isBot: true }, text: 'Vote for your candidate:' });
    expect(answered(e)).toEqual({ answer: false, why: 'other_bot' });
  });
});

describe('system notices stay ignored', () => {
  it.each([
    ['a member joining', MessageType.UserJoin],
    ['a pin notice', MessageType.ChannelPinnedMessage],
    ['a server boost', MessageType.GuildBoost],
    ['a thread created', MessageType.ThreadCreated],
  ])('%s (type %i)', async (_what, type) => {
    const w = rig.fake.world;
    const notice = { ...message(w, 'guild'), type };
    const after = message(w, 'guild', { content: 'welcome!' });
    rig.fake.dispatch('MESSAGE_CREATE', notice);
    rig.fake.dispatch('MESSAGE_CREATE', after);
    await rig.eventFor(after.id);
    expect(rig.eventsFor(notice.id)).toEqual([]);
    expect(rig.ignoredWhy(notice.id)).toBe(`system message type ${type}`);
  });
});
