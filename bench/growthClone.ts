// A stored document copied as another one: every string that is one of the template's ids
// becomes the copy's id (wherever it appears: references, arrays, event payloads), every Date
// moves by the same offset, and anything else is kept as it is (BSON binaries are shared).

const isPlainObject = (v: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

export function cloneDoc<T>(doc: T, ids: ReadonlyMap<string, string>, shiftMs: number): T {
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') return ids.get(v) ?? v;
    if (v instanceof Date) return new Date(v.getTime() + shiftMs);
    if (Array.isArray(v)) return v.map(copy);
    if (typeof v === 'object' && v !== null && isPlainObject(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = copy(x);
      return out;
    }
    return v;
  };
  return copy(doc) as T;
}
