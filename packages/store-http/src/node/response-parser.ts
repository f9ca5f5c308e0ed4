/**
 * An incremental HTTP/1.1 response parser (RFC 9112): the status line and header fields,
 * then the body framed by Content-Length, chunked transfer coding, or the connection's
 * close. Bytes come in whatever pieces the socket delivers; body bytes go out as views of
 * the input (valid only during the callback), so the caller decides whether to copy.
 */

/** The parsed status line and header fields of a response. */
export interface ResponseHead {
  status: number;
  statusText: string;
  /** Header fields in order, names as sent. */
  rawHeaders: [string, string][];
  /** The connection can carry another request after this response. */
  keepAlive: boolean;
}

/** What the parser reports to its owner. */
export interface ResponseParserEvents {
  head(head: ResponseHead): void;
  /** Body bytes; the view is only valid during the call. */
  body(bytes: Uint8Array): void;
  /** The body is complete (at once after `head` when there is none). */
  complete(): void;
}

/** The response is not valid HTTP/1.1; the connection cannot be used any more. */
export class HttpParseError extends Error {
  override name = "HttpParseError";
}

/** Longest response head accepted (status line and fields). */
const MAX_HEAD_BYTES = 64 * 1024;
/** Longest chunk-size line or trailer line accepted. */
const MAX_LINE_BYTES = 8 * 1024;
const LF = 0x0a;
const CR = 0x0d;

enum State {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkDataEnd,
  Trailers,
  UntilClose,
  Done,
}

const latin1 = new TextDecoder("latin1");

/**
 * Parses one response. `method` decides whether a body may follow (not after HEAD).
 * Interim 1xx responses (other than 101) are skipped. Feed bytes with `feed`; call
 * `end` when the connection closes, which completes a body framed by the close.
 */
export class ResponseParser {
  #state = State.Head;
  /** Bytes of the head (or of a chunk-size/trailer line) not yet complete. */
  #line = new Uint8Array(1024);
  #lineLength = 0;
  /** Start of the current line within #line (head parsing). */
  #lineStart = 0;
  /** Body bytes left: of the Content-Length, or of the current chunk. */
  #remaining = 0;
  #keepAlive = false;
  readonly #events: ResponseParserEvents;
  readonly #noBody: boolean;

  constructor(method: string, events: ResponseParserEvents) {
    this.#noBody = method === "HEAD";
    this.#events = events;
  }

  /** True once the whole response, body included, has been parsed. */
  get done(): boolean {
    return this.#state === State.Done;
  }

  /** The connection can carry another request once this response is complete. */
  get keepAlive(): boolean {
    return this.#keepAlive;
  }

  /** True once the head has been parsed. */
  get headParsed(): boolean {
    return this.#state !== State.Head;
  }

  /**
   * Parses `bytes[start, end)`. Returns the offset it stopped at: just after the final
   * head (feed the rest again), just past the response's last byte (bytes after a complete
   * response are not consumed), or `end`. Throws `HttpParseError` on malformed input.
   */
  feed(bytes: Uint8Array, start: number, end: number): number {
    let at = start;
    while (at < end) {
      switch (this.#state) {
        case State.Head:
          at = this.#feedHead(bytes, at, end);
          // Stop after the head, so the owner can decide where the body goes first.
          if (this.#state !== State.Head) return at;
          break;
        case State.Length: {
          const n = Math.min(end - at, this.#remaining);
          this.#remaining -= n;
          this.#events.body(bytes.subarray(at, at + n));
          at += n;
          if (this.#remaining === 0) this.#finish();
          break;
        }
        case State.UntilClose:
          this.#events.body(bytes.subarray(at, end));
          at = end;
          break;
        case State.ChunkSize:
        case State.ChunkDataEnd:
        case State.Trailers:
          at = this.#feedLine(bytes, at, end);
          break;
        case State.ChunkData: {
          const n = Math.min(end - at, this.#remaining);
          this.#remaining -= n;
          this.#events.body(bytes.subarray(at, at + n));
          at += n;
          if (this.#remaining === 0) this.#state = State.ChunkDataEnd;
          break;
        }
        case State.Done:
          return at;
      }
    }
    return at;
  }

  /**
   * The connection closed. Completes a body framed by the close; returns false when the
   * response was not complete (a cut-off body or no response at all).
   */
  end(): boolean {
    if (this.#state === State.UntilClose) this.#finish();
    return this.#state === State.Done;
  }

  #finish(): void {
    this.#state = State.Done;
    this.#events.complete();
  }

  #append(bytes: Uint8Array, from: number, to: number, limit: number): void {
    const need = this.#lineLength + (to - from);
    if (need > limit) throw new HttpParseError(`a response ${this.#state === State.Head ? "head" : "line"} is longer than ${limit} bytes`);
    if (need > this.#line.length) {
      const grown = new Uint8Array(Math.min(limit, Math.max(need, this.#line.length * 2)));
      grown.set(this.#line.subarray(0, this.#lineLength));
      this.#line = grown;
    }
    this.#line.set(bytes.subarray(from, to), this.#lineLength);
    this.#lineLength = need;
  }

  /** Collects the head up to its empty line, then parses it. */
  #feedHead(bytes: Uint8Array, start: number, end: number): number {
    let at = start;
    while (at < end) {
      const lf = bytes.indexOf(LF, at);
      const stop = lf < 0 || lf >= end ? end : lf + 1;
      this.#append(bytes, at, stop, MAX_HEAD_BYTES);
      at = stop;
      if (stop === end && (lf < 0 || lf >= end)) break;
      // A line ended at #lineLength; it is empty when it holds only the LF (and a CR).
      const lineLength = this.#lineLength - this.#lineStart;
      const empty = lineLength === 1 || (lineLength === 2 && this.#line[this.#lineStart] === CR);
      if (!empty) {
        this.#lineStart = this.#lineLength;
        continue;
      }
      if (this.#lineStart === 0) {
        // Blank lines before a status line are tolerated (RFC 9112 §2.2).
        this.#lineLength = 0;
        continue;
      }
      const text = latin1.decode(this.#line.subarray(0, this.#lineStart));
      this.#lineLength = 0;
      this.#lineStart = 0;
      this.#parseHead(text);
      if (this.#state !== State.Head) return at;
    }
    return at;
  }

  #parseHead(text: string): void {
    const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
    const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(lines[0]);
    if (statusLine === null) throw new HttpParseError(`not an HTTP/1.x status line: ${JSON.stringify(lines[0].slice(0, 100))}`);
    const minor = Number(statusLine[1]);
    const status = Number(statusLine[2]);
    const rawHeaders: [string, string][] = [];
    let contentLength: number | undefined;
    let chunked = false;
    let transferCoded = false;
    let close = minor === 0;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      if (line === "") continue;
      if (line[0] === " " || line[0] === "\t") throw new HttpParseError("obsolete header line folding is not supported");
      const colon = line.indexOf(":");
      if (colon <= 0 || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(line.slice(0, colon))) {
        throw new HttpParseError(`malformed header field: ${JSON.stringify(line.slice(0, 100))}`);
      }
      const name = line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      rawHeaders.push([name, value]);
      switch (name.toLowerCase()) {
        case "content-length": {
          // A list of equal values is allowed (RFC 9110 §8.6); anything else is an error.
          for (const part of value.split(",")) {
            const v = part.trim();
            if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new HttpParseError(`invalid Content-Length ${JSON.stringify(value)}`);
            if (contentLength !== undefined && contentLength !== Number(v)) throw new HttpParseError(`conflicting Content-Length values ${JSON.stringify(value)}`);
            contentLength = Number(v);
          }
          break;
        }
        case "transfer-encoding": {
          transferCoded = true;
          const codings = value.toLowerCase().split(",").map((c) => c.trim());
          chunked = codings[codings.length - 1] === "chunked";
          break;
        }
        case "connection": {
          const tokens = value.toLowerCase().split(",").map((t) => t.trim());
          if (tokens.includes("close")) close = true;
          else if (minor === 0 && tokens.includes("keep-alive")) close = false;
          break;
        }
      }
    }
    if (status >= 100 && status <= 199) {
      if (status === 101) throw new HttpParseError("the server switched protocols (101), which is not supported");
      return; // interim response: the real one follows
    }
    let state: State;
    if (this.#noBody || status === 204 || status === 304) state = State.Done;
    else if (transferCoded) state = chunked ? State.ChunkSize : State.UntilClose;
    else if (contentLength !== undefined) state = contentLength === 0 ? State.Done : State.Length;
    else state = State.UntilClose;
    // A transfer coding with a Content-Length is a smuggling risk: never reuse the connection.
    this.#keepAlive = !close && state !== State.UntilClose && !(transferCoded && contentLength !== undefined);
    this.#remaining = contentLength ?? 0;
    this.#events.head({ status, statusText: statusLine[3] ?? "", rawHeaders, keepAlive: this.#keepAlive });
    if (state === State.Done) this.#finish();
    else this.#state = state;
  }

  /** Chunk-size lines, the CRLF after chunk data, and trailer lines. */
  #feedLine(bytes: Uint8Array, start: number, end: number): number {
    const lf = bytes.indexOf(LF, start);
    if (lf < 0 || lf >= end) {
      this.#append(bytes, start, end, MAX_LINE_BYTES);
      return end;
    }
    this.#append(bytes, start, lf, MAX_LINE_BYTES);
    let length = this.#lineLength;
    if (length > 0 && this.#line[length - 1] === CR) length--;
    const text = latin1.decode(this.#line.subarray(0, length));
    this.#lineLength = 0;
    switch (this.#state) {
      case State.ChunkDataEnd:
        if (text !== "") throw new HttpParseError("chunk data is not followed by CRLF");
        this.#state = State.ChunkSize;
        break;
      case State.ChunkSize: {
        const m = /^([0-9A-Fa-f]+)[ \t]*(;.*)?$/.exec(text);
        if (m === null || m[1].length > 13) throw new HttpParseError(`invalid chunk size line ${JSON.stringify(text.slice(0, 100))}`);
        this.#remaining = Number.parseInt(m[1], 16);
        this.#state = this.#remaining === 0 ? State.Trailers : State.ChunkData;
        break;
      }
      case State.Trailers:
        if (text === "") this.#finish();
        break;
    }
    return lf + 1;
  }
}
