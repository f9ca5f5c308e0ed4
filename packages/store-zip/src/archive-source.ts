/**
 * Byte access to the archive as one value of another store: range reads when the store
 * has them, otherwise the whole archive read once and kept. Every method here is at most
 * one request to the source, so callers can count (and tests can check) requests.
 */
import { asZarrError, type ReadableStore, type ReadIntoRange, throwIfAborted } from "@zarr/spec";
import { corrupt, zipError } from "./errors.js";

/** The archive value `key` of `source`, read by absolute byte positions. */
export class ArchiveSource {
  readonly source: ReadableStore;
  readonly key: string;
  /** The whole archive, once it has been read in one piece. */
  #whole: Uint8Array | undefined;

  constructor(source: ReadableStore, key: string) {
    this.source = source;
    this.key = key;
  }

  /** True when the whole archive is in memory (every later read is free). */
  get inMemory(): boolean {
    return this.#whole !== undefined;
  }

  #missing(): Error {
    return zipError("STORE_FAILED", this.key, "the archive does not exist in the source store");
  }

  #wrap(error: unknown): Error {
    return asZarrError(error, "STORE_FAILED", `Reading zip archive "${this.key}" failed`, this.key);
  }

  /**
   * The last `length` bytes of the archive (one suffix request), or the whole archive
   * when the source cannot read ranges. `whole` is true when the result is the entire
   * archive (then it is kept and later reads cost nothing).
   */
  async readTail(length: number, signal: AbortSignal | undefined): Promise<{ bytes: Uint8Array; whole: boolean }> {
    throwIfAborted(signal);
    let bytes: Uint8Array | undefined;
    try {
      bytes =
        typeof this.source.getRange === "function"
          ? await this.source.getRange(this.key, { suffixLength: length }, { signal })
          : await this.source.get(this.key, { signal });
    } catch (error) {
      throw this.#wrap(error);
    }
    if (bytes === undefined) throw this.#missing();
    const whole = typeof this.source.getRange !== "function" || bytes.length < length;
    if (whole) this.#whole = bytes;
    return { bytes, whole };
  }

  /** Bytes `[start, end)` of the archive; a short read means the archive is truncated. */
  async read(start: number, end: number, signal: AbortSignal | undefined, entry?: string): Promise<Uint8Array> {
    throwIfAborted(signal);
    const whole = this.#whole;
    if (whole !== undefined) {
      if (end > whole.length) throw this.#truncated(start, end, whole.length, entry);
      return whole.subarray(start, end);
    }
    if (end === start) return new Uint8Array(0);
    let bytes: Uint8Array | undefined;
    try {
      bytes = await (this.source.getRange as NonNullable<ReadableStore["getRange"]>)(
        this.key,
        { offset: start, length: end - start },
        { signal },
      );
    } catch (error) {
      throw this.#wrap(error);
    }
    if (bytes === undefined) throw this.#missing();
    if (bytes.length !== end - start) throw this.#truncated(start, end, start + bytes.length, entry);
    return bytes;
  }

  /** True when `readInto` goes straight to the source's own scatter read. */
  get canScatter(): boolean {
    return this.#whole === undefined && typeof this.source.readInto === "function";
  }

  /**
   * Scatter read of absolute archive ranges through the source's `readInto` (one
   * request). Only call when `canScatter`.
   */
  async readInto(ranges: readonly ReadIntoRange[], signal: AbortSignal | undefined, entry?: string): Promise<void> {
    throwIfAborted(signal);
    let size: number | undefined;
    try {
      size = await (this.source.readInto as NonNullable<ReadableStore["readInto"]>)(this.key, ranges, { signal });
    } catch (error) {
      throw this.#wrap(error);
    }
    if (size === undefined) throw this.#missing();
    for (const r of ranges) {
      if (r.offset + r.target.length > size) throw this.#truncated(r.offset, r.offset + r.target.length, size, entry);
    }
  }

  #truncated(start: number, end: number, size: number, entry?: string): Error {
    return corrupt(this.key, `needed bytes ${start}..${end} but the archive ends at byte ${size} (truncated?)`, entry);
  }
}
