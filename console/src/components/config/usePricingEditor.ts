// Why a hook: the panel only lays out; this holds the stored prices, the edited rows and the save.
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { ModelPriceFields, type ModelPrice } from '../../lib/cost.js';

const PRICING = graphql(
  `
    query ConfigPricing {
      config {
        version
        pricing {
          ...ModelPriceFields
        }
      }
    }
  `,
  [ModelPriceFields],
);
const SAVE = graphql(`
  mutation SavePricing($patch: ConfigPatchInput!) {
    updateConfig(patch: $patch) {
      version
    }
  }
`);

export type PriceRow = { model: string; prompt: string; completion: string };
const rowsOf = (list: ModelPrice[]): PriceRow[] =>
  list.map((p) => ({ model: p.model, prompt: String(p.promptPerMillion), completion: String(p.completionPerMillion) }));
const same = (a: PriceRow[], b: PriceRow[]) => JSON.stringify(a) === JSON.stringify(b);

/** The rows as edited (reset when the stored prices change), whether they differ, and saving them. */
export function usePricingEditor(p: { version: number; onDirty(d: boolean): void; onSaved(): void }) {
  const q = useQuery(PRICING);
  const stored = rowsOf(q.data?.config.pricing ?? []);
  const [rows, setRows] = useState<PriceRow[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  // Another save (the fields above, a reset) moves the version: read the prices again.
  const seen = useRef(p.version);
  useEffect(() => {
    if (p.version !== seen.current) void q.reload();
    seen.current = p.version;
  }, [p.version]);
  useEffect(() => setRows(stored), [JSON.stringify(stored)]);
  const dirty = !same(rows, stored);
  useEffect(() => p.onDirty(dirty), [dirty]);

  const set = (i: number, k: keyof PriceRow, v: string) =>
    setRows((r) => r.map((x, j) => (j === i ? { ...x, [k]: v } : x)));
  const remove = (i: number) => setRows((x) => x.filter((_, j) => j !== i));
  const add = () => setRows((x) => [...x, { model: '', prompt: '0', completion: '0' }]);
  const save = async () => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const pricing = rows.map((r) => ({
        model: r.model.trim(),
        promptPerMillion: Number(r.prompt),
        completionPerMillion: Number(r.completion),
      }));
      await gql(SAVE, { patch: { pricing } });
      await q.reload();
      setSaved(true);
      p.onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { rows, error, saved, busy, dirty, set, remove, add, save };
}
