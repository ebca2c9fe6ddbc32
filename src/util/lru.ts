// A bounded map that forgets its least recently used entry once it is full.

/**
 * At most `capacity` entries; `get` and `set` make an entry the most recently used, and a `set`
 * that would go past the capacity drops the least recently used one. A Map keeps its keys in
 * insertion order, so moving an entry to the end on use keeps the oldest one first.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`LruCache capacity must be a positive integer, not ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry's value (it becomes the most recently used), or undefined without one. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Adds or replaces the entry as the most recently used; drops the least recently used one past the capacity. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      for (const oldest of this.entries.keys()) {
        this.entries.delete(oldest);
        break;
      }
    }
  }
}
