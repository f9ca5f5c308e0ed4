/**
 * The machine's byte order, on its own so that the `bytes` codec (loaded with every
 * array) does not pull in the byte-swapping helpers of byte-order.ts.
 */

/** True when this machine stores multi-byte numbers little-endian (every mainstream CPU). */
export const MACHINE_LITTLE_ENDIAN: boolean = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
