// Platform payloads validated field by field, shared by the adapters: one malformed optional
// field (a bad entity, attachment or snapshot) is left out and its path noted, so the rest of
// the message still reaches the core. Paths only are noted, never values (they may be private).
import { z } from 'zod';

export type Fields<S extends z.ZodRawShape> = { [K in keyof S]?: z.output<S[K]> };
export type Lists<S extends z.ZodRawShape> = { [K in keyof S]?: Array<z.output<S[K]>> };

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Each present field validated on its own; a bad one is left out and its path noted in `dropped`. */
export function fieldsOf<S extends z.ZodRawShape>(
  raw: Record<string, unknown>,
  shape: S,
  at: string,
  dropped: string[],
): Fields<S> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    // Absent and null both mean "not there" on the platforms' wires.
    if (raw[key] === undefined || raw[key] === null) continue;
    const r = z.safeParse(schema, raw[key]);
    if (r.success) out[key] = r.data;
    else dropped.push(`${at}${key}`);
  }
  // Every key was validated by its own schema just above.
  return out as Fields<S>;
}

/** Lists validated item by item: a bad item is left out, the rest kept. */
export function listsOf<S extends z.ZodRawShape>(
  raw: Record<string, unknown>,
  shape: S,
  at: string,
  dropped: string[],
): Lists<S> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const v = raw[key];
    if (v === undefined || v === null) continue;
    if (!Array.isArray(v)) {
      dropped.push(`${at}${key}`);
      continue;
    }
    const items = v.flatMap((item: unknown, i) => {
      const r = z.safeParse(schema, item);
      if (!r.success) dropped.push(`${at}${key}[${i}]`);
      return r.success ? [r.data] : [];
    });
    if (items.length > 0) out[key] = items;
  }
  // Every item was validated by its list's schema just above.
  return out as Lists<S>;
}
