/** A least-recently-used map bounded by the total cost (bytes) of its values. */

interface Slot<V> {
  value: V;
  cost: number;
}

/**
 * A map that keeps at most `maxBytes` of total cost, evicting the least recently used
 * entries first. A `Map` keeps insertion order, so re-inserting on every hit makes its
 * first entry the least recently used one: no linked list needed.
 */
export class ByteLru<V> {
  readonly #slots = new Map<string, Slot<V>>();
  #bytes = 0;

  constructor(
    /** The most total cost held at once. */
    readonly maxBytes: number,
    /** Called for each entry removed to make room (not for `delete` or `clear`). */
    private readonly onEvict?: (id: string) => void,
  ) {}

  /** Total cost of the entries held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Number of entries held. */
  get size(): number {
    return this.#slots.size;
  }

  has(id: string): boolean {
    return this.#slots.has(id);
  }

  /** The entry under `id`, marking it most recently used. */
  lookup(id: string): { value: V } | undefined {
    const slot = this.#slots.get(id);
    if (slot === undefined) return undefined;
    this.#slots.delete(id);
    this.#slots.set(id, slot);
    return slot;
  }

  /** Stores `value` at `cost`, evicting as needed; false (nothing stored) when it cannot fit at all. */
  insert(id: string, value: V, cost: number): boolean {
    this.delete(id);
    if (cost > this.maxBytes) return false;
    this.#slots.set(id, { value, cost });
    this.#bytes += cost;
    while (this.#bytes > this.maxBytes) {
      const oldest = this.#slots.keys().next().value as string;
      this.delete(oldest);
      this.onEvict?.(oldest);
    }
    return true;
  }

  delete(id: string): boolean {
    const slot = this.#slots.get(id);
    if (slot === undefined) return false;
    this.#slots.delete(id);
    this.#bytes -= slot.cost;
    return true;
  }

  clear(): void {
    this.#slots.clear();
    this.#bytes = 0;
  }
}
