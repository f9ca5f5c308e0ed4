/**
 * The body channel for a response with a content coding: raw bytes go into a zlib
 * decoder, decoded bytes into the channel. Shared by the HTTP/1.1 and HTTP/2 transports.
 */
import type { Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { BodyChannel, type BodySource } from "./body-channel.js";

/** The content codings `fetch` decodes. */
export function decodableCoding(coding: string | undefined): coding is "gzip" | "x-gzip" | "deflate" | "br" {
  return coding === "gzip" || coding === "x-gzip" || coding === "deflate" || coding === "br";
}

/**
 * A channel whose bytes are `coding`-decoded from what the transport writes into
 * `decoder` (write raw bytes there, `end()` it when the body is complete). `source` is the
 * transport's side (paused when the decoder's buffer fills, resumed when it drains);
 * `onError` runs when the body cannot be decoded, after the channel has failed.
 */
export function decodingChannel(
  coding: "gzip" | "x-gzip" | "deflate" | "br",
  source: BodySource,
  onError: () => void,
): { channel: BodyChannel; decoder: Transform } {
  const decoder = coding === "br" ? createBrotliDecompress() : coding === "deflate" ? createInflate() : createGunzip();
  const channel = new BodyChannel({
    pause: () => decoder.pause(),
    resume: () => {
      decoder.resume();
      source.resume();
    },
    abandon: source.abandon,
    discard: source.abandon,
  });
  decoder.on("data", (chunk: Buffer) => channel.deliver(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength), true));
  decoder.on("drain", () => source.resume());
  decoder.on("end", () => channel.finish());
  decoder.on("error", (error) => {
    channel.fail(new TypeError("fetch failed: the body could not be decoded", { cause: error }));
    onError();
  });
  return { channel, decoder };
}
