// Strings for shared components (posting into a chat, chat bubbles) and the room settings form,
// kept apart so their authors can edit them without conflicts; messages.ts merges them in.
export const componentsEn = {
  'post.placeholder': 'Post into the chat as the operator (no AI reply follows)',
  'post.as': 'Post as',
  'post.asOperator': 'as operator',
  'post.asSystem': 'as system',
  'post.sending': 'Sending…',
  'post.submit': 'Post',

  'chat.deleteConfirm': 'Delete this conversation and everything learnt in it?',
  'chat.role.user': 'user',
  'chat.role.assistant': 'assistant',
  'chat.role.system': 'system',
  'chat.streaming': 'streaming',
  'chat.failedState': 'failed: {state}',
  'chat.relevance': 'relevance {score}',
  'knowledge.fileUnreadable': 'the file could not be read',

  'setup.roomSettings.title': 'Room settings',
  'setup.roomSettings.timeoutHint':
    '5–3600 seconds; blank: unchanged (the deployment’s setting while the room has none).',
  'setup.roomSettings.hostHint': 'Leads the room in host mode.',
  'setup.roomSettings.noHost': 'No host yet',
  'setup.roomSettings.leave': 'You have unsaved room settings. Leave this page and lose them?',
} as const;

export const componentsZhCN: Record<keyof typeof componentsEn, string> = {
  'post.placeholder': '以操作员身份发到聊天中（不会触发 AI 回复）',
  'post.as': '发送身份',
  'post.asOperator': '以操作员身份',
  'post.asSystem': '以系统身份',
  'post.sending': '正在发送…',
  'post.submit': '发送',

  'chat.deleteConfirm': '删除此会话以及从中学到的所有内容？',
  'chat.role.user': '用户',
  'chat.role.assistant': '智能体',
  'chat.role.system': '系统',
  'chat.streaming': '生成中',
  'chat.failedState': '失败：{state}',
  'chat.relevance': '相关度 {score}',
  'knowledge.fileUnreadable': '无法读取该文件',

  'setup.roomSettings.title': '聊天室设置',
  'setup.roomSettings.timeoutHint': '5–3600 秒；留空则不修改（聊天室未单独设置时沿用部署的设置）。',
  'setup.roomSettings.hostHint': '主持模式下由主持人主导聊天室。',
  'setup.roomSettings.noHost': '尚未指定主持人',
  'setup.roomSettings.leave': '聊天室设置尚未保存。确定要离开此页面并放弃修改吗？',
};
