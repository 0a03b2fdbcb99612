// The shapes the setup pages read (agents with their bots, backgrounds, web users).
export interface AgentAccount {
  platform: string;
  userId: string;
  username: string | null;
}

export interface AgentDetail {
  id: string;
  name: string;
  aliases: string[];
  basePersona: string;
  introduction: string | null;
  isDefault: boolean;
  bindings: AgentAccount[];
}

export const AGENT_FIELDS = 'id name aliases basePersona introduction isDefault bindings { platform userId username }';

export interface BackgroundDetail {
  id: string;
  name: string;
  worldSetting: string;
  outline: Array<{ n: number; text: string }>;
  createdAt: string;
}

export const BACKGROUND_FIELDS = 'id name worldSetting outline { n text } createdAt';

export interface WebUser {
  id: string;
  name: string;
  issuedBy: string;
  revoked: boolean;
  createdAt: string;
}

export const WEB_USER_FIELDS = 'id name issuedBy revoked createdAt';
