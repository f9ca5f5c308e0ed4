import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HttpParseError, type ResponseHead, ResponseParser } from "../src/node/response-parser.js";

const enc = new TextEncoder();

interface Parsed {
  heads: ResponseHead[];
  body: number[];
  complete: boolean;
  /** Offset after the response in the whole input (bytes past it were not consumed). */
  stoppedAt: number;
}

/** Feeds `input` in pieces cut at `cuts`, as a socket would deliver it; `closed` ends the connection after. */
function parse(method: string, input: Uint8Array, cuts: number[] = [], closed = false): Parsed {
  const out: Parsed = { heads: [], body: [], complete: false, stoppedAt: -1 };
  const parser = new ResponseParser(method, {
    head: (h) => out.heads.push(h),
    body: (b) => out.body.push(...b),
    complete: () => {
      out.complete = true;
    },
  });
  const bounds = [...new Set([0, ...cuts.filter((c) => c > 0 && c < input.length), input.length])].sort((a, b) => a - b);
  for (let i = 0; i + 1 < bounds.length && out.stoppedAt < 0; i++) {
    // Each piece sits in a reused buffer at an offset, like a socket read buffer.
    const buffer = new Uint8Array(bounds[i + 1] - bounds[i] + 7).fill(0xee);
    buffer.set(input.subarray(bounds[i], bounds[i + 1]), 3);
    let at = 3;
    const end = 3 + bounds[i + 1] - bounds[i];
    while (at < end && !parser.done) at = parser.feed(buffer, at, end);
    if (parser.done) out.stoppedAt = bounds[i] + at - 3;
    buffer.fill(0xdd); // the next read overwrites the buffer: nothing may keep a view of it
  }
  if (closed && !parser.done) parser.end();
  return out;
}

function chunked(body: Uint8Array, sizes: number[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= body.length) break;
    const piece = body.subarray(at, Math.min(body.length, at + Math.max(1, size)));
    parts.push(enc.encode(`${piece.length.toString(16)};ext=1\r\n`), piece, enc.encode("\r\n"));
    at += piece.length;
  }
  if (at < body.length) parts.push(enc.encode(`${(body.length - at).toString(16)}\r\n`), body.subarray(at), enc.encode("\r\n"));
  parts.push(enc.encode("0\r\nx-trailer: yes\r\n\r\n"));
  return join(parts);
}

function join(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const bodies = fc.uint8Array({ maxLength: 3000 });
const cutsOf = fc.array(fc.nat({ max: 4000 }), { maxLength: 12 });

describe("ResponseParser", () => {
  it("reads Content-Length bodies in any split, and stops at the response's end", () => {
    fc.assert(
      fc.property(bodies, cutsOf, fc.uint8Array({ maxLength: 20 }), (body, cuts, after) => {
        const head = enc.encode(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nX-A: 1\r\n\r\n`);
        const r = parse("GET", join([head, body, after]), cuts);
        expect(r.heads).toHaveLength(1);
        expect(r.heads[0]).toMatchObject({ status: 200, statusText: "OK", keepAlive: true });
        expect(r.heads[0].rawHeaders).toContainEqual(["X-A", "1"]);
        expect(r.complete).toBe(true);
        expect(Uint8Array.from(r.body)).toEqual(body);
        expect(r.stoppedAt).toBe(head.length + body.length);
      }),
    );
  });

  it("reads chunked bodies with extensions and trailers in any split", () => {
    fc.assert(
      fc.property(bodies, fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 8 }), cutsOf, (body, sizes, cuts) => {
        const head = enc.encode("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        const wire = join([head, chunked(body, sizes)]);
        const r = parse("GET", wire, cuts);
        expect(r.complete).toBe(true);
        expect(r.heads[0].keepAlive).toBe(true);
        expect(Uint8Array.from(r.body)).toEqual(body);
        expect(r.stoppedAt).toBe(wire.length);
      }),
    );
  });

  it("reads a body framed by the connection's close, and never reuses that connection", () => {
    fc.assert(
      fc.property(bodies, cutsOf, (body, cuts) => {
        const r = parse("GET", join([enc.encode("HTTP/1.1 200 OK\r\n\r\n"), body]), cuts, true);
        expect(r.complete).toBe(true);
        expect(r.heads[0].keepAlive).toBe(false);
        expect(Uint8Array.from(r.body)).toEqual(body);
      }),
    );
  });

  it("skips interim 1xx responses, and has no body after HEAD, 204 or 304", () => {
    const interim = parse("GET", enc.encode("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"), [5, 30]);
    expect(interim.heads.map((h) => h.status)).toEqual([200]);
    expect(String.fromCharCode(...interim.body)).toBe("hi");
    const head = enc.encode("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");
    const afterHead = parse("HEAD", head);
    expect(afterHead).toMatchObject({ complete: true, body: [], stoppedAt: head.length });
    for (const status of [204, 304]) {
      expect(parse("GET", enc.encode(`HTTP/1.1 ${status} X\r\n\r\n`))).toMatchObject({ complete: true, body: [] });
    }
  });

  it("accepts bare LF line ends, blank lines before the status line, and a missing reason phrase", () => {
    const r = parse("GET", enc.encode("\r\nHTTP/1.1 404\nContent-Length: 1\n\nx"));
    expect(r.heads[0]).toMatchObject({ status: 404, statusText: "" });
    expect(r.body).toEqual([0x78]);
  });

  it("knows when a connection may carry another request", () => {
    const keep = (text: string) => parse("GET", enc.encode(text)).heads[0].keepAlive;
    expect(keep("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")).toBe(false);
    expect(keep("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")).toBe(false);
    expect(keep("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n")).toBe(true);
    // A transfer coding next to a Content-Length: framed by the coding, never reused.
    expect(keep("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")).toBe(false);
  });

  it("reports a body cut off by the connection's close as incomplete", () => {
    const parser = new ResponseParser("GET", { head() {}, body() {}, complete() {} });
    const bytes = enc.encode("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
    let at = parser.feed(bytes, 0, bytes.length);
    at = parser.feed(bytes, at, bytes.length);
    expect(at).toBe(bytes.length);
    expect(parser.end()).toBe(false);
    expect(new ResponseParser("GET", { head() {}, body() {}, complete() {} }).end()).toBe(false);
  });

  it("rejects malformed responses with HttpParseError", () => {
    const bad = [
      "HTTP/2 200 OK\r\n\r\n",
      "ICY 200 OK\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
      "HTTP/1.1 200 OK\r\nBad Header: x\r\n\r\n",
      "HTTP/1.1 200 OK\r\nX: 1\r\n folded\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffff\r\n",
      "HTTP/1.1 101 Switching Protocols\r\n\r\n",
      `HTTP/1.1 200 OK\r\nX: ${"a".repeat(70_000)}\r\n\r\n`,
    ];
    for (const text of bad) expect(() => parse("GET", enc.encode(text), [7, 40]), text.slice(0, 60)).toThrow(HttpParseError);
    // Content-Length listed twice with one value is fine (RFC 9110 §8.6).
    expect(parse("GET", enc.encode("HTTP/1.1 200 OK\r\nContent-Length: 1, 1\r\n\r\nz")).body).toEqual([0x7a]);
  });
});
