/** Collecting a `GetObject` response body into one standalone `Uint8Array`. */

/** The part of the SDK's streaming body mixin this package uses. */
interface ByteArrayBody {
  transformToByteArray(): Promise<Uint8Array>;
}

/**
 * The bytes of a response body as a plain `Uint8Array` that owns its whole `ArrayBuffer`
 * (`byteOffset` 0), so callers can view it as a typed array of any element size. In Node
 * the SDK may hand back a `Buffer` carved out of the shared 8 KiB pool (small bodies); that
 * is copied once. A missing body (a zero-length object on some servers) is empty.
 */
export async function collectBody(body: ByteArrayBody | undefined): Promise<Uint8Array> {
  if (body === undefined) return new Uint8Array(0);
  const bytes = await body.transformToByteArray();
  return ownBytes(bytes);
}

/** `bytes` itself when it is a plain, unshared `Uint8Array`; else a view or a copy that is. */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  if (whole) return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, 0, bytes.byteLength);
  return new Uint8Array(bytes); // copies exactly the viewed bytes into a fresh buffer
}
