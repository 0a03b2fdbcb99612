// User-facing system texts (SPEC §11: zh-CN by default, English available).
export type Locale = 'zh-CN' | 'en';

const TEXTS = {
  MESSAGE_CONTENT_REQUIRED: {
    'zh-CN': '消息内容不能为空。请发送文字消息。',
    en: 'Your message is empty. Please send some text.',
  },
  MESSAGE_TOO_LONG: {
    'zh-CN': '消息太长了（最多 10000 字）。请缩短后再发送。',
    en: 'That message is too long (at most 10,000 characters). Please shorten it and send it again.',
  },
  LLM_SERVICE_ERROR: {
    'zh-CN': '抱歉，AI 服务暂时出错了，请稍后再试。',
    en: 'Sorry, the AI service had an error. Please try again in a moment.',
  },
  MODEL_NOT_CONFIGURED: {
    'zh-CN':
      '还没有配置 AI 模型，所以我暂时无法回答。请设置 OPENAI_API_KEY，或把 OPENAI_BASE_URL 指向本地的 OpenAI 兼容服务（如 Ollama、vLLM）。',
    en: 'No AI model is configured yet, so I cannot answer. Set OPENAI_API_KEY, or point OPENAI_BASE_URL at a local OpenAI-compatible server (Ollama, vLLM).',
  },
  LINK_DONE: {
    'zh-CN': '已关联！从现在起，你在这里和网页上是同一个人，我记得的事情也共享。',
    en: 'Linked! From now on you are the same person here and on the web, and I remember things across both.',
  },
  LINK_CODE_INVALID: {
    'zh-CN': '这个关联码无效或已过期。请在网页上重新获取一个，再发送 /link 关联码。',
    en: 'That link code is not valid or has expired. Get a new one on the web and send /link CODE again.',
  },
  LINK_PRIVATE_ONLY: {
    'zh-CN': '请在和我的私聊中发送 /link 关联码。',
    en: 'Please send /link CODE to me in a private chat.',
  },
  GENERATION_TIMEOUT: {
    'zh-CN': '抱歉，回复生成超时了，请再试一次。',
    en: 'Sorry, the reply took too long and was stopped. Please try again.',
  },
  INTERRUPTED_MARK: {
    'zh-CN': '（已停止）',
    en: '(stopped)',
  },
  NOTHING_TO_STOP: {
    'zh-CN': '当前没有正在生成的回复。',
    en: 'There is no reply in progress to stop.',
  },
  START: {
    'zh-CN': '你好！我是你的 AI 伙伴，直接发消息给我就可以聊天。发送 /help 查看可用命令。',
    en: "Hi! I'm your AI companion — just send me a message to talk. Send /help to see the commands.",
  },
  HELP: {
    'zh-CN':
      '可用命令：\n/new — 开始新的对话（之前的内容不再作为上下文）\n/summary — 汇总当前对话，从摘要继续\n/background — 查看或切换故事背景\n/agents — 查看可以聊天的角色，/agent 名字 切换\n/stop — 停止正在生成的回复\n/help — 显示本帮助\n在群组里，@我、回复我的消息或叫我的名字，我就会回答；/answerall on|off 可让我回答群里的每条消息。',
    en: 'Commands:\n/new — start a fresh conversation (earlier messages leave the context)\n/summary — summarise this conversation and continue from the summary\n/background — see or switch the story’s background\n/agents — see whom you can talk to; /agent NAME switches\n/stop — stop the reply being written\n/help — show this help\nIn a group I answer when you @mention me, reply to me or call me by name; /answerall on|off makes me answer every message.',
  },
  NEW_SESSION: {
    'zh-CN': '好的，我们重新开始吧。',
    en: "Okay — let's start fresh.",
  },
  ANSWER_ALL_ON: {
    'zh-CN': '好的，我会回答本群的每一条消息。发送 /answerall off 可恢复为只在被提及时回答。',
    en: 'Okay, I will answer every message in this group. Send /answerall off to go back to answering only when addressed.',
  },
  ANSWER_ALL_OFF: {
    'zh-CN': '好的，我只在被 @、被回复或被叫到名字时回答。',
    en: 'Okay, I will answer only when mentioned, replied to or called by name.',
  },
  ROOMS_ONLY: {
    'zh-CN': '这个命令只在多智能体聊天室中有效。',
    en: 'That command only works in a room with several agents.',
  },
  NOT_A_ROOM: {
    'zh-CN': '这个聊天还不是聊天室。运营者用 createRoom 创建时填写：platform: {platform}，chatId: "{chatId}"。',
    en: 'This chat is not a room yet. To make it one, an operator calls createRoom with platform: {platform}, chatId: "{chatId}".',
  },
  ROOM_STATUS: {
    'zh-CN': '聊天室「{name}」：{mode}模式，{status}。\n成员：{members}\n{round}',
    en: 'Room “{name}”: {mode} mode, {status}.\nMembers: {members}\n{round}',
  },
  ROOM_ROUND: {
    'zh-CN': '第 {seq} 轮：已询问 {asked}；正在等待 {next}。',
    en: 'Round {seq}: asked {asked}; waiting for {next}.',
  },
  ROOM_NO_ROUND: {
    'zh-CN': '当前没有进行中的轮次。',
    en: 'No round in progress.',
  },
  ROOM_PAUSED: {
    'zh-CN': '聊天室已暂停，智能体不会再发言。发送 /resume 继续。',
    en: 'The room is paused; the agents will not speak. Send /resume to continue.',
  },
  ROOM_RESUMED: {
    'zh-CN': '聊天室已继续。',
    en: 'The room is active again.',
  },
  ROOM_HOST_SET: {
    'zh-CN': '主持人现在是 {name}。',
    en: '{name} is now the host.',
  },
  ROOM_HOST_UNKNOWN: {
    'zh-CN': '请用 /host @名字 指定一位聊天室里的智能体。',
    en: 'Name one of the room’s agents: /host @name.',
  },
  GROUPS_ONLY: {
    'zh-CN': '这个命令只在群组中有效。',
    en: 'That command only works in groups.',
  },
  EMPTY_REPLY: {
    'zh-CN': '（没有回复）',
    en: '(no reply)',
  },
  PROMPT_TOO_LONG: {
    'zh-CN':
      '对话内容太长了（{tokens} tokens，上限 {limit}），我无法继续回复。请发送 /summary 汇总当前对话，或请管理员调高 limits.max_total_tokens。',
    en: 'This conversation has grown too long for me to answer ({tokens} tokens, the limit is {limit}). Send /summary to summarise it, or ask an operator to raise limits.max_total_tokens.',
  },
  BACKGROUND_LIST: {
    'zh-CN': '可选的背景：\n{list}\n发送 /background 编号 切换，/background off 取消背景。当前：{current}',
    en: 'Backgrounds:\n{list}\nSend /background NUMBER to switch, /background off to leave the story. Now: {current}',
  },
  BACKGROUND_NONE_DEFINED: {
    'zh-CN': '还没有可用的背景，请管理员先创建一个。',
    en: 'There are no backgrounds yet; an operator has to create one first.',
  },
  BACKGROUND_SWITCHED: {
    'zh-CN': '已切换到背景「{name}」，故事从第 {beat} 点继续。',
    en: 'Switched to “{name}”; the story continues at beat {beat}.',
  },
  BACKGROUND_OFF: {
    'zh-CN': '已取消背景，我们回到普通聊天。之前的故事进度会保留。',
    en: 'No background now; we are back to plain conversation. The story’s progress is kept.',
  },
  AGENT_LIST: {
    'zh-CN': '可以聊天的角色：\n{list}\n发送 /agent 名字 切换。每个角色的对话和记忆各自保留。当前：{current}',
    en: 'You can talk to:\n{list}\nSend /agent NAME to switch. Each keeps its own conversation and memories. Now: {current}',
  },
  AGENT_SWITCHED: {
    'zh-CN': '好的，现在和你聊天的是 {name}。',
    en: 'Okay, you are now talking to {name}.',
  },
  AGENT_UNKNOWN: {
    'zh-CN': '没有叫「{name}」的角色。可选：{names}。',
    en: 'There is no one called “{name}”. You can pick: {names}.',
  },
  AGENT_PRIVATE_ONLY: {
    'zh-CN': '请在和我的私聊中发送 /agent 名字 选择聊天的角色。',
    en: 'Send /agent NAME to me in a private chat to choose whom you talk to.',
  },
  AGENT_OWN_BOT: {
    'zh-CN': '这是 {name} 自己的机器人，在这里只和 {name} 聊天。',
    en: 'This is {name}’s own bot: here you talk to {name} only.',
  },
  BACKGROUND_UNKNOWN: {
    'zh-CN': '没有这个背景。发送 /background 查看可选的背景。',
    en: 'There is no such background. Send /background to see the list.',
  },
  SUMMARY_STARTED: {
    'zh-CN': '好的，我正在汇总我们的对话……',
    en: 'Okay, I am summarising our conversation…',
  },
  SUMMARY_DONE: {
    'zh-CN': '汇总完成，新的对话将从这份摘要继续：\n\n{summary}',
    en: 'Done. We continue from this summary:\n\n{summary}',
  },
  SUMMARY_NOTHING: {
    'zh-CN': '目前还没有可以汇总的内容。',
    en: 'There is nothing to summarise yet.',
  },
  SUMMARY_FAILED: {
    'zh-CN': '抱歉，汇总失败了，请稍后再试。',
    en: 'Sorry, the summary failed. Please try again later.',
  },
  ACCESS_NOT_ADMITTED: {
    'zh-CN': '这个机器人目前只对受邀的人开放。如果你有邀请码，请发送 /start 邀请码；也可以请管理员为你开通。',
    en: 'This bot is open to invited people only. If you have an invite code, send /start CODE; or ask the operator to let you in.',
  },
  ACCESS_BLOCKED: {
    'zh-CN': '你已无法在这里和我聊天。如有疑问，请联系管理员。',
    en: 'You can no longer talk to me here. Please contact the operator if you think this is a mistake.',
  },
  ACCESS_GROUP_NOT_ADMITTED: {
    'zh-CN': '这个群还没有开通。已开通的成员可以在群里发送 /allow 开通，或请管理员开通。',
    en: 'This group is not let in yet. A member who is let in can send /allow here, or ask the operator.',
  },
  INVITE_ACCEPTED: {
    'zh-CN': '欢迎！邀请码有效，现在可以和我聊天了。',
    en: 'Welcome! Your invite code worked: you can talk to me now.',
  },
  INVITE_UNKNOWN: {
    'zh-CN': '这个邀请码不存在，请检查后再发送 /start 邀请码。',
    en: 'That invite code does not exist. Please check it and send /start CODE again.',
  },
  INVITE_EXPIRED: {
    'zh-CN': '这个邀请码已过期，请向管理员索取新的邀请码。',
    en: 'That invite code has expired. Please ask the operator for a new one.',
  },
  INVITE_USED_UP: {
    'zh-CN': '这个邀请码已被用完，请向管理员索取新的邀请码。',
    en: 'That invite code has been used up. Please ask the operator for a new one.',
  },
  INVITE_REVOKED: {
    'zh-CN': '这个邀请码已被撤销，请向管理员索取新的邀请码。',
    en: 'That invite code was withdrawn. Please ask the operator for a new one.',
  },
  GROUP_ALLOWED: {
    'zh-CN': '好的，这个群已开通，群里的每个人都可以和我聊天了。',
    en: 'Done: this group is let in, and everyone here can talk to me.',
  },
  GROUP_ALLOW_DENIED: {
    'zh-CN': '只有已开通的成员才能开通这个群。',
    en: 'Only someone who is let in can let this group in.',
  },
  BUDGET_PERSON: {
    'zh-CN': '你今天的对话额度已用完，将在 {resetAt} 恢复。在此之前的消息我会记下，但不会回复。',
    en: 'You have used up today’s allowance. It resets at {resetAt}; until then I keep your messages but cannot answer.',
  },
  BUDGET_CHAT: {
    'zh-CN': '这个聊天今天的对话额度已用完，将在 {resetAt} 恢复。在此之前的消息我会记下，但不会回复。',
    en: 'This chat has used up today’s allowance. It resets at {resetAt}; until then I keep messages but cannot answer.',
  },
  BUDGET_DEPLOYMENT: {
    'zh-CN': '今天的服务额度已用完，将在 {resetAt} 恢复。在此之前的消息我会记下，但不会回复。',
    en: 'Today’s service allowance is used up. It resets at {resetAt}; until then I keep messages but cannot answer.',
  },
  BUDGET_EXCEEDED: {
    'zh-CN': '今天的对话额度已用完，请明天再来。',
    en: 'Today’s allowance is used up. Please come back tomorrow.',
  },
  /** SPEC §14: moderation flagged the person's message; it was kept but not sent to the model. */
  MODERATION_REFUSED_IN: {
    'zh-CN': '抱歉，这条消息没有通过内容审核，没有发给 AI。请换个说法再试。',
    en: 'Sorry, this message did not pass content moderation and was not sent to the AI. Please try rephrasing it.',
  },
  /** SPEC §14: moderation flagged the reply; people see this instead of it. */
  MODERATION_WITHHELD: {
    'zh-CN': '抱歉，这条回复没有通过内容审核，已被拦下。',
    en: 'Sorry, this reply did not pass content moderation and was withheld.',
  },
} satisfies Record<string, Record<Locale, string>>;

export type TextKey = keyof typeof TEXTS;

export function text(key: TextKey, locale: Locale, vars: Record<string, string | number> = {}): string {
  return TEXTS[key][locale].replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

/** The platform's language tag wins when we have that language; otherwise the default. */
export function pickLocale(languageCode: string | undefined, fallback: Locale): Locale {
  if (!languageCode) return fallback;
  const tag = languageCode.toLowerCase();
  if (tag.startsWith('zh')) return 'zh-CN';
  if (tag.startsWith('en')) return 'en';
  return fallback;
}
