// The agents' ids and names, one query for every page that picks an agent (chat, knowledge,
// reflections).
import { graphql } from './graphql.js';

export const AGENTS = graphql(`
  query Agents {
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
