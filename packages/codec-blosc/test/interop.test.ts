/**
 * Interop with numcodecs 0.11 (c-blosc 1.21) through Debian's Python, both ways: chunks
 * numcodecs writes decode here to the same bytes (compared by SHA-256), and chunks
 * written here decode in numcodecs to the input. Our headers are also compared with
 * the ones numcodecs writes for the same data (block size, split and shuffle flags).
 *
 * Sizes are in bytes, rounded up to whole elements: 0, 1, 7 and 100 elements, then
 * 64 KiB + 3 and 1 MiB + 5 bytes, so most cases end with a leftover block. Every
 * cname × shuffle (incl. AUTOSHUFFLE) × typesize (1, 2, 4, 8, 3, 16) runs with block sizes
 * 0, 256 and 4096 for the small sizes, 0 and 4096 for 64 KiB; the 1 MiB size and the
 * compression levels cover subsets (see below).
 */

import { beforeAll, describe, expect, it } from "vitest";
import { havePythonZarr, skipWithout } from "../../../scripts/test-env.mjs";
import { type BloscCname, type BloscShuffle, bloscCompress, bloscDecompress, readBloscHeader } from "../src/index.js";
import { b64, makeData, PY_MAKE_DATA, python, sha, unb64 } from "./helpers.js";

const CNAMES: BloscCname[] = ["blosclz", "lz4", "lz4hc", "zlib", "zstd", "snappy"];
const SHUFFLES: BloscShuffle[] = [0, 1, 2, -1];
const TYPESIZES = [1, 2, 4, 8, 3, 16];

/** [cname, clevel, shuffle, typesize, elements, blocksize, seed] */
type Case = [BloscCname, number, BloscShuffle, number, number, number, number];

function matrix(counts: (ts: number) => number[], blocksizes: number[], clevels = [5]): Case[] {
  const cases: Case[] = [];
  let seed = 1;
  for (const cname of CNAMES)
    for (const clevel of clevels)
      for (const shuffle of SHUFFLES)
        for (const ts of TYPESIZES)
          for (const n of counts(ts)) for (const bs of blocksizes) cases.push([cname, clevel, shuffle, ts, n, bs, seed++]);
  return cases;
}

const PY_NUMCODECS_ENCODES = `${PY_MAKE_DATA}
import sys, json, base64, hashlib
from numcodecs import blosc
from numcodecs.blosc import Blosc
blosc.use_threads = False
out = []
for cname, clevel, shuffle, ts, n, bs, seed in json.load(sys.stdin):
    raw = make_data(n * ts, seed)
    arr = np.frombuffer(raw, dtype='u1' if ts == 1 else 'V%d' % ts)
    enc = Blosc(cname, clevel, shuffle, bs).encode(arr)
    out.append([base64.b64encode(enc).decode(), hashlib.sha256(raw).hexdigest()])
print(json.dumps(out))
`;

const PY_NUMCODECS_DECODES = `
import sys, json, base64, hashlib
import numpy as np
from numcodecs import blosc
from numcodecs.blosc import Blosc
blosc.use_threads = False
out = []
for (cname, clevel, shuffle, ts, n, bs, seed), enc in json.load(sys.stdin):
    # numcodecs 0.11 cannot decompress an empty chunk, not even its own.
    dec = blosc.decompress(base64.b64decode(enc)) if n > 0 else b''
    arr = np.frombuffer(dec, dtype='u1' if ts == 1 else 'V%d' % ts)
    theirs = Blosc(cname, clevel, shuffle, bs).encode(arr)
    out.append([hashlib.sha256(dec).hexdigest(), base64.b64encode(theirs[:16] if n > 0 else theirs).decode()])
print(json.dumps(out))
`;

/** Has numcodecs encode every case (one Python run); returns [chunk, SHA-256 of the input] per case. */
function numcodecsEncodes(cases: Case[]): [string, string][] {
  const results = python<[string, string][]>(PY_NUMCODECS_ENCODES, cases);
  expect(results.length).toBe(cases.length);
  return results;
}

function weDecode(cases: Case[], results: [string, string][]): void {
  const failures: string[] = [];
  results.forEach(([enc, hash], i) => {
    try {
      const decoded = bloscDecompress(unb64(enc), `case ${i}`);
      if (sha(decoded) !== hash) failures.push(`${JSON.stringify(cases[i])}: wrong bytes`);
    } catch (error) {
      failures.push(`${JSON.stringify(cases[i])}: ${(error as Error).message}`);
    }
  });
  expect(failures.slice(0, 20)).toEqual([]);
}

interface Ours {
  inputs: Uint8Array[];
  encoded: Uint8Array[];
  results: [string, string][];
}

/** Encodes every case here and has numcodecs decode them (one Python run). */
function weEncode(cases: Case[]): Ours {
  const inputs = cases.map(([, , , ts, n, , seed]) => makeData(n * ts, seed));
  const encoded = cases.map(([cname, clevel, shuffle, ts, , bs], i) =>
    bloscCompress(inputs[i], { cname, clevel, shuffle, typesize: ts, blocksize: bs }),
  );
  const results = python<[string, string][]>(
    PY_NUMCODECS_DECODES,
    cases.map((c, i) => [c, b64(encoded[i])]),
  );
  return { inputs, encoded, results };
}

function numcodecsDecodes(cases: Case[], { inputs, encoded, results }: Ours): void {
  const failures: string[] = [];
  results.forEach(([hash, theirHeader], i) => {
    const c = JSON.stringify(cases[i]);
    if (hash !== sha(inputs[i])) failures.push(`${c}: numcodecs decoded different bytes`);
    const ours = readBloscHeader(encoded[i]);
    const theirs = readBloscHeader(unb64(theirHeader));
    // For empty chunks numcodecs sent its whole chunk: ours must be the same bytes.
    if (cases[i][4] === 0 && b64(encoded[i]) !== theirHeader) failures.push(`${c}: empty chunk differs from numcodecs'`);
    // Whether a chunk ends up memcpyed depends on how well each implementation compresses.
    const same =
      ours.version === theirs.version &&
      ours.versionlz === theirs.versionlz &&
      (ours.flags & ~2) === (theirs.flags & ~2) &&
      ours.typesize === theirs.typesize &&
      ours.nbytes === theirs.nbytes &&
      ours.blocksize === theirs.blocksize;
    if (!same) failures.push(`${c}: header ${JSON.stringify(ours)} vs numcodecs ${JSON.stringify(theirs)}`);
    if (ours.memcpyed !== theirs.memcpyed && (cases[i][1] === 0 || ours.nbytes < 128)) {
      failures.push(`${c}: memcpyed ${ours.memcpyed} vs numcodecs ${theirs.memcpyed}`);
    }
  });
  expect(failures.slice(0, 20)).toEqual([]);
}

/** Splits per-case results back into groups of the given sizes. */
function split<T>(all: T[], sizes: number[]): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (const n of sizes) {
    out.push(all.slice(at, at + n));
    at += n;
  }
  return out;
}

const small = matrix(() => [0, 1, 7, 100], [0, 256, 4096]);
const medium = matrix((ts) => [Math.ceil((65536 + 3) / ts)], [0, 4096]);
// The 1 MiB cases are the slow ones (our TypeScript zstd and lz4hc encoders): every
// cname with byte shuffle of 4-byte elements and bit shuffle of 3-byte elements.
const large = matrix((ts) => (ts === 4 || ts === 3 ? [Math.ceil(((1 << 20) + 5) / ts)] : []), [0]).filter(
  (c) => (c[2] === 1 && c[3] === 4) || (c[2] === 2 && c[3] === 3),
);
// Every level changes the block size (and the inner compressor's level).
const levels = matrix((ts) => (ts === 4 ? [8200] : []), [0], [0, 1, 2, 3, 4, 6, 7, 8, 9]).filter(
  (c) => c[2] === 1 || c[2] === 2,
);

// Encoding is the slow direction (our TypeScript encoders, and @zarr/codec-zstd's encoder
// runs at about 1 MB/s at blosc's default zstd level 9), so the 64 KiB cases we encode
// skip typesizes 2 and 8 (the small sizes cover them), and zstd keeps only byte and bit
// shuffle of 4- and 3-byte elements.
const fewerZstd = (c: Case) => c[0] !== "zstd" || ((c[2] === 1 || c[2] === 2) && (c[3] === 4 || c[3] === 3));
const mediumOurs = medium.filter((c) => c[3] !== 2 && c[3] !== 8).filter(fewerZstd);
const largeOurs = large.filter((c) => c[0] !== "zstd" || c[3] === 4);

const theirGroups = [small, medium, large, levels];
const ourGroups = [small, mediumOurs, largeOurs, levels];
const names = ["small chunks", "64 KiB + 3 bytes", "1 MiB + 5 bytes", "compression levels 0-9"];

// One Python run per direction (starting Python with numpy costs about half a second).
const NO_PYTHON = skipWithout(havePythonZarr(), "python3-zarr (numcodecs)");

describe.skipIf(NO_PYTHON)("numcodecs encodes, we decode", () => {
  let results: [string, string][][] = [];
  beforeAll(() => {
    results = split(numcodecsEncodes(theirGroups.flat()), theirGroups.map((g) => g.length));
  });
  theirGroups.forEach((group, k) => {
    it(`${names[k]} (${group.length} cases)`, () => weDecode(group, results[k]));
  });
});

describe.skipIf(NO_PYTHON)("we encode, numcodecs decodes", () => {
  let results: Ours[] = [];
  beforeAll(() => {
    const all = weEncode(ourGroups.flat());
    const sizes = ourGroups.map((g) => g.length);
    const inputs = split(all.inputs, sizes);
    const encoded = split(all.encoded, sizes);
    results = split(all.results, sizes).map((r, k) => ({ inputs: inputs[k], encoded: encoded[k], results: r }));
  });
  ourGroups.forEach((group, k) => {
    it(`${names[k]} (${group.length} cases)`, () => numcodecsDecodes(group, results[k]));
  });
});
