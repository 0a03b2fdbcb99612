import { z } from 'zod';
import { defineTool } from '../registry.js';

const isTimezone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const currentTimeTool = defineTool({
  name: 'current_time',
  description:
    'The current date and time. Give an IANA timezone (e.g. Europe/Paris) for a place; without one the user’s display timezone is used.',
  parameters: z.object({
    timezone: z.string().refine(isTimezone, 'must be an IANA timezone such as Asia/Shanghai').optional(),
  }),
  run: ({ timezone }, ctx) => {
    const tz = timezone ?? ctx.timezone;
    const local = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      dateStyle: 'full',
      timeStyle: 'long',
      hourCycle: 'h23',
    }).format(ctx.now);
    return Promise.resolve({ utc: ctx.now.toISOString(), timezone: tz, local });
  },
});
