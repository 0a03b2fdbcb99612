// seed 002 skip_response for internal agents: the agent asked in a room declines to speak. Only
// offered in a room's ask; refused when the agent was @mentioned (it must answer). The reply
// then ends without a word reaching the platform (src/respond/replyDelivery.ts).
import { z } from 'zod';
import { defineTool } from '../tools/registry.js';
import { GatewayError } from '../errors.js';

export const skipResponseTool = defineTool({
  name: 'skip_response',
  description:
    'Decline to speak this round when you have nothing worth adding; the next participant is asked. Not allowed when someone @mentioned you.',
  parameters: z.object({ reason: z.string().max(200).optional() }),
  run: (_args, ctx) => {
    if (!ctx.ask) throw new GatewayError('NOT_YOUR_TURN', 'skip_response only works when you are asked in a room');
    if (!ctx.ask.canSkip)
      throw new GatewayError('SKIP_NOT_ALLOWED', 'you were @mentioned: you must answer, you cannot skip');
    if (ctx.ask.spoke())
      throw new GatewayError('SKIP_NOT_ALLOWED', 'you have already started answering: finish your answer');
    ctx.ask.markSkipped();
    return Promise.resolve({ skipped: true });
  },
});
