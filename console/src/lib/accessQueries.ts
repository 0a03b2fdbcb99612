// The GraphQL of who may talk and how much anyone may spend (SPEC §14): invites, people's standing
// and quotas, a chat's standing, and the day's spend with the names it is shown under.
import { graphql, type ResultOf, type VariablesOf } from './graphql.js';

export const InviteFields = graphql(`
  fragment InviteFields on Invite {
    code
    link
    maxUses
    uses
    expiresAt
    revoked
    createdBy
    createdAt
  }
`);

/** Invite codes are an admin's (the API refuses the list to lower roles). */
export const INVITES = graphql(
  `
    query Invites {
      invites {
        ...InviteFields
      }
    }
  `,
  [InviteFields],
);
export type InviteView = ResultOf<typeof INVITES>['invites'][number];

export const CREATE_INVITE = graphql(
  `
    mutation CreateInvite($maxUses: Int!, $expiresInHours: Int) {
      createInvite(maxUses: $maxUses, expiresInHours: $expiresInHours) {
        ...InviteFields
      }
    }
  `,
  [InviteFields],
);

export const REVOKE_INVITE = graphql(
  `
    mutation RevokeInvite($code: String!) {
      revokeInvite(code: $code) {
        ...InviteFields
      }
    }
  `,
  [InviteFields],
);

export const HumanAccessFields = graphql(`
  fragment HumanAccessFields on Human {
    id
    displayName
    createdAt
    access
    dailyTokens
    identities {
      platform
      userId
      username
    }
  }
`);

/** People newest first, a page at a time (the API gives at most 100 a page). */
export const PEOPLE = graphql(
  `
    query AccessPeople($first: Int!, $after: String) {
      humans(first: $first, after: $after) {
        edges {
          node {
            ...HumanAccessFields
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
  [HumanAccessFields],
);

/** The mode and the per-person limit the people's standing and quotas are read against. */
export const ACCESS_CONFIG = graphql(`
  query AccessConfig {
    config {
      access {
        mode
      }
      limits {
        person_daily_tokens
      }
    }
  }
`);
export type PersonView = ResultOf<typeof PEOPLE>['humans']['edges'][number]['node'];

export const SET_HUMAN_ACCESS = graphql(
  `
    mutation SetHumanAccess($humanId: ID!, $access: HumanAccess!) {
      setHumanAccess(humanId: $humanId, access: $access) {
        ...HumanAccessFields
      }
    }
  `,
  [HumanAccessFields],
);
export type Standing = VariablesOf<typeof SET_HUMAN_ACCESS>['access'];
export const STANDINGS: readonly Standing[] = ['DEFAULT', 'ALLOWED', 'BLOCKED'];

export const SET_HUMAN_QUOTA = graphql(
  `
    mutation SetHumanQuota($humanId: ID!, $dailyTokens: Int) {
      setHumanQuota(humanId: $humanId, dailyTokens: $dailyTokens) {
        ...HumanAccessFields
      }
    }
  `,
  [HumanAccessFields],
);

export const SET_CHAT_ACCESS = graphql(`
  mutation SetChatAccess($dialogueId: ID!, $access: ChatAccess!) {
    setChatAccess(dialogueId: $dialogueId, access: $access) {
      id
      access
    }
  }
`);

/**
 * The spend of a span of days, and in the same request the names its rows are shown under: the
 * dialogues active since the span began (every chat that spent in it, with its people) and the
 * agents. A row whose subject is not among them (past the 100 most recently active chats) shows its id.
 */
export const SPEND = graphql(`
  query Spend($fromDay: String!, $toDay: String!, $activeSince: DateTime!) {
    spend(fromDay: $fromDay, toDay: $toDay) {
      day
      scope
      subjectId
      tokens
      inputTokens
      outputTokens
      cost
      calls
    }
    dialogues(first: 100, since: $activeSince) {
      edges {
        node {
          id
          title
          type
          chat {
            platform
            chatId
          }
          humans {
            id
            displayName
          }
        }
      }
    }
    agents(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);
export type SpendData = ResultOf<typeof SPEND>;
export type SpendRow = SpendData['spend'][number];
