// Two turns' contexts side by side: each part's tokens and the change, the hashes (a changed
// stable prefix breaks provider prompt caching), the recalled memories in and out, and a line
// diff of the full prompts.
import { useMemo } from 'preact/hooks';
import { useQuery } from '../lib/hooks.js';
import { Link } from '../lib/router.js';
import { contextBuild, PART_LABELS, promptLines, type ContextBuild } from '../lib/trace.js';
import { diffLines, foldUnchanged } from '../lib/diff.js';
import { formatNumber } from '../lib/time.js';
import { nodes, type Conn, type EventView } from '../lib/types.js';
import { Badge, Empty, ErrorBox, Loading, PageHeader, Panel, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';

const CONTEXTS = `query Contexts($a: ID!, $b: ID!) {
  a: events(turnId: $a, kind: context_built, last: 1) { edges { node { id kind at turnId messageId data } } }
  b: events(turnId: $b, kind: context_built, last: 1) { edges { node { id kind at turnId messageId data } } }
}`;

function delta(a: number | null | undefined, b: number | null | undefined) {
  const d = (b ?? 0) - (a ?? 0);
  if (!d) return <span class="muted">0</span>;
  return <span class={d > 0 ? 'up' : 'down'}>{d > 0 ? `+${formatNumber(d)}` : formatNumber(d)}</span>;
}

export function TurnDiffPage(p: { a: string; b: string }) {
  const { t } = useI18n();
  const q = useQuery<{ a: Conn<EventView>; b: Conn<EventView> }>(CONTEXTS, { a: p.a, b: p.b }, { skip: !p.a || !p.b });
  const ea = nodes(q.data?.a)[0];
  const eb = nodes(q.data?.b)[0];
  const ca = ea ? contextBuild(ea) : undefined;
  const cb = eb ? contextBuild(eb) : undefined;
  const hunks = useMemo(
    () => (ca && cb ? foldUnchanged(diffLines(promptLines(ca.prompt), promptLines(cb.prompt))) : []),
    [ea?.id, eb?.id],
  );
  if (!p.a || !p.b) return <Empty>Pick two turns to compare (from a dialogue or a trace).</Empty>;
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading what="the two contexts" />;
  if (!ca || !cb || !ea || !eb)
    return <Empty>{!ca ? 'The first' : 'The second'} turn has no context build to compare.</Empty>;

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
      <Panel title="Parts">
        <table class="table compact" data-testid="diff-parts">
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col" class="num">
                A tokens
              </th>
              <th scope="col" class="num">
                B tokens
              </th>
              <th scope="col" class="num">
                Change
              </th>
            </tr>
          </thead>
          <tbody>
            {names.map((n) => (
              <tr>
                <td>
                  <span class="mono">{n}</span> <span class="muted small">{PART_LABELS[n] ?? ''}</span>
                </td>
                <td class="num">{formatNumber(tokens(ca, n))}</td>
                <td class="num">{formatNumber(tokens(cb, n))}</td>
                <td class="num">{delta(tokens(ca, n), tokens(cb, n))}</td>
              </tr>
            ))}
            <tr class="total">
              <td>Total (as the provider counts)</td>
              <td class="num">{formatNumber(ca.totalTokens)}</td>
              <td class="num">{formatNumber(cb.totalTokens)}</td>
              <td class="num">{delta(ca.totalTokens, cb.totalTokens)}</td>
            </tr>
          </tbody>
        </table>
        <div class="kv-row">
          <span>
            Stable prefix{' '}
            {ca.prefixHash === cb.prefixHash ? <Badge tone="ok">unchanged</Badge> : <Badge tone="warn">changed</Badge>}
          </span>
          <span>
            History mode {ca.mode} → {cb.mode}
          </span>
          <span>
            Config v{ca.configVersion ?? '?'} → v{cb.configVersion ?? '?'}
          </span>
          <span>
            Recall: {added.length} in, {removed.length} out
          </span>
        </div>
      </Panel>
      <Panel title={`Prompt (${changes} changed lines)`}>
        {changes === 0 ? (
          <Empty>The two prompts are identical.</Empty>
        ) : (
          <div class="diff" data-testid="prompt-diff">
            {hunks.map((h) =>
              h.kind === 'gap' ? (
                <div class="diff-gap">⋯ {h.count} unchanged lines ⋯</div>
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
