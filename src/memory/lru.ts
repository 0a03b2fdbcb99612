// The least-recently-used rule of the per-process index caches (memory scopes, knowledge agents):
// a Map kept in use order, oldest first, bounded by evicting from the front.

/** Marks `key` as just used (holding `value`) and evicts the least recently used past `max`. */
export function touchLru<K, V>(lru: Map<K, V>, key: K, value: V, max: number): void {
  lru.delete(key);
  lru.set(key, value);
  while (lru.size > max) {
    const oldest = lru.keys().next().value;
    if (oldest === undefined) break;
    lru.delete(oldest);
  }
}
