/** Messages between a worker pool and its worker threads. */

/** A call to run in a worker. */
export interface TaskMessage {
  id: number;
  moduleUrl: string;
  exportName: string;
  args: readonly unknown[];
}

/** Tells a worker to abort call `cancel` (the signal its runtime passed the export); it still answers the call. */
export interface CancelMessage {
  cancel: number;
}

/** What a pool sends its workers. */
export type PoolMessage = TaskMessage | CancelMessage;

/**
 * A call's failure as a worker reports it. `zarr` is true for a ZarrError (a subclass such
 * as MetadataError, or from another copy of @zarr/spec, included): only then is `code` one of ours.
 */
export interface ErrorReport {
  name: string;
  message: string;
  code?: string;
  key?: string;
  jsonPath?: string;
  zarr?: boolean;
}

/** The outcome of a call. */
export type ResultMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorReport };

/** True when `v` is a view of a whole (unshared) ArrayBuffer, which can be moved to another thread. */
export function ownsBuffer(v: unknown): v is ArrayBufferView & { buffer: ArrayBuffer } {
  return ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength;
}

/** Buffers of typed arrays in `value` (top level or one array deep) that own their ArrayBuffer, to move instead of copy. */
export function ownedBuffers(value: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const visit = (v: unknown) => {
    if (ownsBuffer(v)) {
      if (!out.includes(v.buffer)) out.push(v.buffer);
    }
  };
  if (Array.isArray(value)) value.forEach(visit);
  else if (value !== null && typeof value === "object" && !ArrayBuffer.isView(value)) Object.values(value).forEach(visit);
  else visit(value);
  return out;
}
