/** Worker-side entry point: the checksum check run by a worker pool (see `workerDecode`). */
import { type ChecksumLocation, verifiedPayload } from "./checksum.js";

/** The data of `bytes` without its checksum (a view), after checking it; errors name `key`. */
export function decode(bytes: Uint8Array, location: ChecksumLocation, key: string): Uint8Array {
  return verifiedPayload(bytes, location, key);
}
