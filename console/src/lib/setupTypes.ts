// The selections the setup pages share (agents with their bots, backgrounds, web users), as
// fragments whose results are the pages' types.
import { graphql, type FragmentOf } from './graphql.js';

export const AgentFields = graphql(`
  fragment AgentFields on Agent {
    id
    name
    aliases
    basePersona
    introduction
    isDefault
    bindings {
      platform
      userId
      username
    }
    modelSettings {
      name
      temperature
      maxOutputTokens
    }
  }
`);
export type AgentDetail = FragmentOf<typeof AgentFields>;
export type AgentAccount = AgentDetail['bindings'][number];

export const BackgroundFields = graphql(`
  fragment BackgroundFields on Background {
    id
    name
    worldSetting
    outline {
      n
      text
    }
    createdAt
  }
`);
export type BackgroundDetail = FragmentOf<typeof BackgroundFields>;

export const WebUserFields = graphql(`
  fragment WebUserFields on WebUser {
    id
    name
    issuedBy
    revoked
    createdAt
  }
`);
export type WebUser = FragmentOf<typeof WebUserFields>;
