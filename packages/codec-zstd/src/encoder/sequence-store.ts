/**
 * The sequences and literals one block produces: what the match finder fills and the
 * block encoder consumes. Sized once for the largest block and reused block after block.
 */

/** Largest decoded size of one block (Block_Maximum_Size with windows ≥ 128 KiB). */
export const MAX_BLOCK_SIZE = 128 * 1024;
/** Matches are at least 3 bytes long, so a block holds at most this many sequences. */
const MAX_SEQUENCES = Math.ceil(MAX_BLOCK_SIZE / 3) + 1;

/** One block's literals and (literal length, match length, Offset_Value) sequences. */
export class SequenceStore {
  /** The literal bytes of all sequences plus the trailing literals, in order. */
  readonly literals = new Uint8Array(MAX_BLOCK_SIZE);
  nbLiterals = 0;
  /** Literal run before each match. */
  readonly litLength = new Uint32Array(MAX_SEQUENCES);
  /** Match length (≥ 3). */
  readonly matchLength = new Uint32Array(MAX_SEQUENCES);
  /** Offset_Value: 1..3 are repeat-offset codes, larger values are offset + 3. */
  readonly offBase = new Uint32Array(MAX_SEQUENCES);
  nbSeq = 0;

  /** Empties the store for the next block. */
  reset(): void {
    this.nbLiterals = 0;
    this.nbSeq = 0;
  }
}
