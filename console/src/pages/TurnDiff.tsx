// Two turns' contexts side by side: each part's tokens and the change, the hashes (a changed
// stable prefix breaks provider prompt caching), the recalled memories in and out, and a line
// diff of the full prompts.
import { useMemo } from 'preact/hooks';
import { graphql } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { Link } from '../lib/router.js';
import { contextBuild, promptLines } from '../lib/trace.js';
import { diffLines, foldUnchanged } from '../lib/diff.js';
import { EventFields, nodes } from '../lib/types.js';
import { Empty, ErrorBox, Loading, PageHeader, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { DiffParts } from '../components/trace/DiffParts.js';
import { PromptDiff } from '../components/trace/PromptDiff.js';

const CONTEXTS = graphql(
  `
    query Contexts($a: ID!, $b: ID!) {
      a: events(turnId: $a, kind: context_built, last: 1) {
        edges {
          node {
            ...EventFields
          }
        }
      }
      b: events(turnId: $b, kind: context_built, last: 1) {
        edges {
          node {
            ...EventFields
          }
        }
      }
    }
  `,
  [EventFields],
);

export function TurnDiffPage(p: { a: string; b: string }) {
  const { t } = useI18n();
  const q = useQuery(CONTEXTS, { a: p.a, b: p.b }, { skip: !p.a || !p.b });
  const ea = nodes(q.data?.a)[0];
  const eb = nodes(q.data?.b)[0];
  const ca = ea ? contextBuild(ea) : undefined;
  const cb = eb ? contextBuild(eb) : undefined;
  const hunks = useMemo(
    () => (ca && cb ? foldUnchanged(diffLines(promptLines(ca.prompt), promptLines(cb.prompt))) : []),
    [ea?.id, eb?.id],
  );
  if (!p.a || !p.b) return <Empty>{t('diff.pick')}</Empty>;
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading what="the two contexts" />;
  if (!ca || !cb || !ea || !eb) return <Empty>{t(!ca ? 'diff.noContextFirst' : 'diff.noContextSecond')}</Empty>;

  return (
    <>
      <PageHeader
        title={t('turnDiff.title')}
        sub={
          <>
            <Link href={`/turns/${encodeURIComponent(p.a)}`}>A: {p.a}</Link> (<Time at={ea.at} />) →{' '}
            <Link href={`/turns/${encodeURIComponent(p.b)}`}>B: {p.b}</Link> (<Time at={eb.at} />)
          </>
        }
      />
      <DiffParts ca={ca} cb={cb} />
      <PromptDiff hunks={hunks} />
    </>
  );
}
