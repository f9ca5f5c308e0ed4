/**
 * Where a response body goes once it arrives: to a direct sink (the `BODY_INTO` path,
 * which gets views of the read buffer) or to a `ReadableStream` (which gets copies), with
 * whatever arrived before either was attached held as copies. Backpressure pauses the
 * source (the socket or a decoder).
 */
import type { BodySink } from "../body-into.js";

/** What the channel can ask of the producer of the bytes. */
export interface BodySource {
  pause(): void;
  resume(): void;
  /** Stop producing for good (the consumer failed): close the connection. */
  abandon(): void;
  /**
   * The consumer does not want the rest: drop it, either by reading it to the end (a
   * short rest, so the connection can be reused) or by closing the connection.
   */
  discard(): void;
}

/** Chunks queued in the stream beyond what the reader asked for before the source pauses. */
const STREAM_QUEUE = 16;

export class BodyChannel {
  #mode: "none" | "stream" | "sink" | "discard" = "none";
  #state: "open" | "done" | "failed" = "open";
  #error: unknown;
  #pending: Uint8Array[] = [];
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #sink: BodySink | undefined;
  #settle: { resolve(): void; reject(error: unknown): void } | undefined;
  readonly #source: BodySource;

  constructor(source: BodySource) {
    this.#source = source;
  }

  /** New body bytes; `owned` when the view is the channel's to keep (else it is copied if kept). */
  deliver(bytes: Uint8Array, owned: boolean): void {
    if (this.#state !== "open" || bytes.length === 0) return;
    switch (this.#mode) {
      case "discard":
        return;
      case "sink":
        try {
          (this.#sink as BodySink)(bytes);
        } catch (error) {
          this.fail(error);
          this.#source.abandon();
        }
        return;
      case "stream": {
        const controller = this.#controller as ReadableStreamDefaultController<Uint8Array>;
        controller.enqueue(owned ? bytes : bytes.slice());
        if ((controller.desiredSize ?? 0) <= -STREAM_QUEUE) this.#source.pause();
        return;
      }
      case "none":
        // Nobody reads yet: keep a copy and stop the source until someone does.
        this.#pending.push(owned ? bytes : bytes.slice());
        this.#source.pause();
    }
  }

  /** The body is complete. */
  finish(): void {
    if (this.#state !== "open") return;
    this.#state = "done";
    if (this.#mode === "sink") this.#settle?.resolve();
    else if (this.#mode === "stream") this.#controller?.close();
  }

  /** The body broke off (or the consumer's sink threw). */
  fail(error: unknown): void {
    if (this.#state !== "open") return;
    this.#state = "failed";
    this.#error = error;
    this.#pending = [];
    if (this.#mode === "sink") this.#settle?.reject(error);
    else if (this.#mode === "stream") this.#controller?.error(error);
  }

  /** The direct path: every piece to `sink`, in order. */
  into(sink: BodySink): Promise<void> {
    if (this.#mode !== "none") return Promise.reject(new TypeError("the body has already been read"));
    this.#mode = "sink";
    this.#sink = sink;
    return new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
      const pending = this.#pending;
      this.#pending = [];
      try {
        for (const piece of pending) sink(piece);
      } catch (error) {
        this.fail(error);
        this.#source.abandon();
        return;
      }
      if (this.#state === "done") resolve();
      else if (this.#state === "failed") reject(this.#error);
      else this.#source.resume();
    });
  }

  /** The body as a stream (read lazily: nothing is taken from the source before the first read). */
  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: (controller) => {
          if (this.#mode === "sink" || this.#mode === "discard") {
            controller.error(new TypeError("the body has already been read"));
            return;
          }
          if (this.#mode === "none") {
            this.#mode = "stream";
            const controller = this.#controller as ReadableStreamDefaultController<Uint8Array>;
            for (const piece of this.#pending) controller.enqueue(piece);
            this.#pending = [];
            if (this.#state === "done") controller.close();
            else if (this.#state === "failed") controller.error(this.#error);
          }
          if (this.#mode === "stream" && this.#state === "open") this.#source.resume();
        },
        cancel: () => {
          // A body consumed through the direct path is left alone; otherwise stop the transfer.
          if (this.#mode === "sink" || this.#state !== "open") return;
          this.#mode = "discard";
          this.#pending = [];
          this.#source.discard();
        },
      },
      { highWaterMark: 0 },
    );
  }
}
