// Two turns' contexts side by side: each part's tokens and the change, the hashes (a changed
// stable prefix breaks provider prompt caching), the recalled memories in and out, and a line
// diff of the full prompts.
import { useMemo } from 'preact/hooks';
import { graphql } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { Link } from '../lib/router.js';
import { contextBuild, partLabel, promptLines, type ContextBuild } from '../lib/trace.js';
import { diffLines, foldUnchanged } from '../lib/diff.js';
import { formatNumber } from '../lib/time.js';
import { EventFields, nodes } from '../lib/types.js';
import { Badge, Empty, ErrorBox, Loading, PageHeader, Panel, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';

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

function delta(a: number | null | undefined, b: number | null | undefined) {
  const d = (b ?? 0) - (a ?? 0);
  if (!d) return <span class="muted">0</span>;
  return <span class={d > 0 ? 'up' : 'down'}>{d > 0 ? `+${formatNumber(d)}` : formatNumber(d)}</span>;
}

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

  const names = [...new Set([...ca.parts.map((x) => x.name), ...cb.parts.map((x) => x.name)])];
  const tokens = (c: ContextBuild, n: string) => c.parts.find((x) => x.name === n)?.tokens ?? 0;
  const recallA = new Set(ca.recall?.memoryIds ?? []);
  const recallB = new Set(cb.recall?.memoryIds ?? []);
  const added = [...recallB].filter((x) => !recallA.has(x));
  const removed = [...recallA].filter((x) => !recallB.has(x));
  const changes = hunks.reduce(
    (n, h) => n + (h.kind === 'lines' ? h.lines.filter((l) => l.op !== 'same').length : 0),
    0,
  );

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
      <Panel title={t('diff.parts')}>
        <table class="table compact" data-testid="diff-parts">
          <thead>
            <tr>
              <th scope="col">{t('th.part')}</th>
              <th scope="col" class="num">
                {t('diff.aTokens')}
              </th>
              <th scope="col" class="num">
                {t('diff.bTokens')}
              </th>
              <th scope="col" class="num">
                {t('diff.change')}
              </th>
            </tr>
          </thead>
          <tbody>
            {names.map((n) => (
              <tr>
                <td>
                  <span class="mono">{n}</span> <span class="muted small">{partLabel(t, n)}</span>
                </td>
                <td class="num">{formatNumber(tokens(ca, n))}</td>
                <td class="num">{formatNumber(tokens(cb, n))}</td>
                <td class="num">{delta(tokens(ca, n), tokens(cb, n))}</td>
              </tr>
            ))}
            <tr class="total">
              <td>{t('diff.total')}</td>
              <td class="num">{formatNumber(ca.totalTokens)}</td>
              <td class="num">{formatNumber(cb.totalTokens)}</td>
              <td class="num">{delta(ca.totalTokens, cb.totalTokens)}</td>
            </tr>
          </tbody>
        </table>
        <div class="kv-row">
          <span>
            {t('diff.stablePrefix')}{' '}
            {ca.prefixHash === cb.prefixHash ? (
              <Badge tone="ok">{t('diff.unchanged')}</Badge>
            ) : (
              <Badge tone="warn">{t('diff.changed')}</Badge>
            )}
          </span>
          <span>{t('diff.historyMode', { a: ca.mode ?? '', b: cb.mode ?? '' })}</span>
          <span>{t('diff.config', { a: ca.configVersion ?? '?', b: cb.configVersion ?? '?' })}</span>
          <span>{t('diff.recall', { in: added.length, out: removed.length })}</span>
        </div>
      </Panel>
      <Panel title={t('diff.prompt', { n: changes })}>
        {changes === 0 ? (
          <Empty>{t('diff.identical')}</Empty>
        ) : (
          <div class="diff" data-testid="prompt-diff">
            {hunks.map((h) =>
              h.kind === 'gap' ? (
                <div class="diff-gap">{t('diff.gap', { n: h.count })}</div>
              ) : (
                h.lines.map((l) => (
                  <div class={`diff-line ${l.op}`}>
                    <span class="sign">{l.op === 'add' ? '+' : l.op === 'del' ? '−' : ' '}</span>
                    {l.text || ' '}
                  </div>
                ))
              ),
            )}
          </div>
        )}
      </Panel>
    </>
  );
}
