/** The help text of the part options (no imports: every command's usage loads it). */

/** The help paragraph of the part options, shared by every partitioned command. */
export const PARTS_USAGE = `  Partitioned runs (any batch scheduler; the target store is the only shared state):
  --part i/n         run part i (from 0) of n: only its own chunks, then a marker under
                     .zarr-jobs/ in DST; metadata is not written
  --parts n          the same, with i from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX
  --init             write the metadata before the parts (idempotent)
  --finalize         with --parts n: check every part's marker, write the metadata, remove
                     the markers (idempotent)
  --resume           with a part: skip chunks already written and verified`;
