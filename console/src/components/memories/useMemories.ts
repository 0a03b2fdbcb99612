// Why a hook: the page only lays out; this holds the address's filters, the list and the search.
import { useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql, type ResultOf, type VariablesOf } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { navigate } from '../../lib/router.js';
import { nodes } from '../../lib/types.js';
import { MemoryFields } from '../MemoryRow.js';

const PEOPLE = graphql(`
  query People {
    agents(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
    humans(first: 100) {
      edges {
        node {
          id
          displayName
        }
      }
    }
  }
`);
const LIST = graphql(
  `
    query Memories($owner: ID, $subject: ID, $status: MemoryStatus) {
      memories(first: 100, ownerId: $owner, subjectId: $subject, status: $status) {
        edges {
          node {
            ...MemoryFields
          }
        }
        pageInfo {
          hasNextPage
        }
      }
    }
  `,
  [MemoryFields],
);
const SEARCH = graphql(
  `
    query Search($owner: ID!, $subject: ID, $text: String!) {
      searchMemories(ownerId: $owner, subjectId: $subject, text: $text, limit: 20) {
        queries
        keywordOnly
        hits {
          score
          memory {
            ...MemoryFields
          }
        }
      }
    }
  `,
  [MemoryFields],
);

export type Hits = ResultOf<typeof SEARCH>['searchMemories'];
type MemoryStatus = VariablesOf<typeof LIST>['status'];

/** The people to filter by, the filters from the address, the entries, and a search's hits. */
export function useMemories(query: URLSearchParams) {
  const people = useQuery(PEOPLE);
  const agents = nodes(people.data?.agents);
  const humans = nodes(people.data?.humans);
  const agent = query.get('agent') ?? agents[0]?.id ?? '';
  const human = query.get('human') ?? '';
  const status = query.get('status') ?? 'active';
  const list = useQuery(
    LIST,
    // The status comes from the address: one the API does not know is refused, shown as the list's error.
    { owner: agent || null, subject: human || null, status: status === 'all' ? null : (status as MemoryStatus) },
    { skip: !agent },
  );
  const [text, setText] = useState('');
  const [hits, setHits] = useState<Hits | null>(null);
  const [searchError, setSearchError] = useState<unknown>();

  const set = (k: string, v: string) => {
    const next = new URLSearchParams(query);
    next.set('agent', agent);
    if (v) next.set(k, v);
    else next.delete(k);
    setHits(null);
    navigate(`/memories?${next.toString()}`, { replace: true });
  };
  const search = async (e: Event) => {
    e.preventDefault();
    setSearchError(undefined);
    try {
      const r = await gql(SEARCH, { owner: agent, subject: human || null, text });
      setHits(r.searchMemories);
    } catch (err) {
      setSearchError(err);
    }
  };
  const changed = () => {
    void list.reload();
    setHits(null);
  };
  const memories = nodes(list.data?.memories);
  const filters = { agents, humans, agent, human, status, set };
  const searching = { text, setText, hits, setHits, searchError, search };
  return { people, list, memories, changed, filters, searching };
}
