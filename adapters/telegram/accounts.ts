// Which Telegram bot a token belongs to (getMe): how an agent's own bot is registered.
import { Api } from 'grammy';

export async function telegramBotOf(token: string, apiRoot: string): Promise<{ userId: string; username?: string }> {
  const me = await new Api(token, { apiRoot }).getMe();
  return { userId: String(me.id), ...(me.username ? { username: me.username } : {}) };
}
