/**
 * Bad input: every damaged, truncated, foreign or inconsistent repository file is a coded
 * ZarrError naming the object, never wrong data, a crash or a hang; fast-check mutates the
 * fixtures' real files to look for anything else.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { zstdDecompress } from "@zarr/codec-zstd";
import { MemoryStore } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeFile, FILE_TYPE, IcechunkWriter, idName, repoInfoPayload, snapshotPayload, transactionLogPayload } from "../../../bench/lib/icechunk-writer.mjs";
import { parseHeader } from "../src/file-header.js";
import { IcechunkRepository, openIcechunk } from "../src/index.js";
import { Manifest } from "../src/manifest.js";
import { parseRepoInfo } from "../src/repo-info.js";
import { parseSnapshot } from "../src/snapshot.js";
import { parseTransactionLog } from "../src/transaction-log.js";
import { FIXTURES } from "./helpers.js";

const LIMIT = 1 << 30;
const fixtureFile = (path: string) => new Uint8Array(readFileSync(join(FIXTURES, path)));
const REPO = fixtureFile("test-repo-v2/repo");
const SNAPSHOT = fixtureFile("test-repo-v2/snapshots/H7T8YA6KR5TH32F3PS10");
const MANIFEST = fixtureFile("test-repo-v2/manifests/WTMRMCW414QYFTX7JJPG");
const SNAPSHOT_V1 = fixtureFile("test-repo-v1/snapshots/XDZ162T1TYBEJMK99NPG");
const MANIFEST_V1 = fixtureFile("test-repo-v1/manifests/Q04J7QW5RQ8D17TPA10G");
const TX_LOG = fixtureFile("test-repo-v2/transactions/ZA24GZGPNK3GH682Q1R0");
const TX_LOG_V1 = fixtureFile("test-repo-v1/transactions/7XAF0Q905SH4938DN9CG");
/** A log with every list and a move (the fixtures have neither deletions nor moves). */
const TX_LOG_FULL = encodeFile(
  transactionLogPayload(new Uint8Array(12).fill(7), {
    newGroups: [new Uint8Array(8).fill(1)], newArrays: [new Uint8Array(8).fill(2)], deletedGroups: [new Uint8Array(8).fill(3)],
    deletedArrays: [new Uint8Array(8).fill(4)], updatedGroups: [new Uint8Array(8).fill(5)], updatedArrays: [new Uint8Array(8).fill(6)],
    updatedChunks: [{ nodeId: new Uint8Array(8).fill(2), chunks: [[1, 2, 3], [0, 9, 9]] }],
    movedNodes: [{ from: "/a", to: "/b", nodeId: new Uint8Array(8).fill(8), array: true }],
  }),
  FILE_TYPE.transactionLog,
);

/** A spec 2.1 repo info: the second snapshot lists two pruned ancestor logs. */
const REPO_PRUNED = encodeFile(
  repoInfoPayload({
    snapshots: [
      { id: new Uint8Array(12).fill(1), parent: -1, flushedAtMicros: 1, message: "first" },
      { id: new Uint8Array(12).fill(2), parent: 0, flushedAtMicros: 2, message: "tip", prunedAncestorTxLogs: [new Uint8Array(12).fill(3), new Uint8Array(12).fill(4)] },
    ],
    branches: { main: 1 },
    tags: {},
  }),
  FILE_TYPE.repoInfo,
);

const PARSERS: [string, Uint8Array, (bytes: Uint8Array) => unknown][] = [
  ["repo (2.1)", REPO_PRUNED, (b) => parseRepoInfo(b, "repo (2.1)", LIMIT)],
  ["repo", REPO, (b) => parseRepoInfo(b, "repo", LIMIT)],
  ["snapshots/H7T8YA6KR5TH32F3PS10", SNAPSHOT, (b) => parseSnapshot(b, "snapshots/H7T8YA6KR5TH32F3PS10", LIMIT)],
  ["snapshots/XDZ162T1TYBEJMK99NPG", SNAPSHOT_V1, (b) => parseSnapshot(b, "snapshots/XDZ162T1TYBEJMK99NPG", LIMIT)],
  ["manifests/WTMRMCW414QYFTX7JJPG", MANIFEST, (b) => readAllRefs(new Manifest(b, "manifests/WTMRMCW414QYFTX7JJPG", LIMIT))],
  ["manifests/Q04J7QW5RQ8D17TPA10G", MANIFEST_V1, (b) => readAllRefs(new Manifest(b, "manifests/Q04J7QW5RQ8D17TPA10G", LIMIT))],
  ["transactions/ZA24GZGPNK3GH682Q1R0", TX_LOG, (b) => parseTransactionLog(b, "transactions/ZA24GZGPNK3GH682Q1R0", LIMIT)],
  ["transactions/7XAF0Q905SH4938DN9CG", TX_LOG_V1, (b) => parseTransactionLog(b, "transactions/7XAF0Q905SH4938DN9CG", LIMIT)],
  ["transactions/FULL", TX_LOG_FULL, (b) => parseTransactionLog(b, "transactions/FULL", LIMIT)],
];

/** Looks up every reference a fixture's array could have (node ids from the snapshot). */
function readAllRefs(manifest: Manifest): unknown[] {
  const out: unknown[] = [];
  for (const snapshot of [parseSnapshot(SNAPSHOT, "s", LIMIT), parseSnapshot(SNAPSHOT_V1, "s", LIMIT)]) {
    for (const node of snapshot.nodes.values()) {
      if (node.kind !== "array") continue;
      for (const coords of manifest.coordinates(node.nodeId)) out.push(manifest.find(node.nodeId, coords));
    }
  }
  return out;
}

function expectCoded(run: () => unknown, code: string, object: string): void {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error, `expected ${code}`).toBeInstanceOf(ZarrError);
  expect((error as ZarrError).code).toBe(code);
  expect((error as ZarrError).message).toContain(object);
}

describe("the header", () => {
  it("reads spec 2.1 pruned ancestor logs, and none from older repo info files", () => {
    const info = parseRepoInfo(REPO_PRUNED, "repo", LIMIT);
    expect([...info.snapshots.values()].map((s) => s.prunedAncestorTxLogs)).toEqual([[], [idName(new Uint8Array(12).fill(3)), idName(new Uint8Array(12).fill(4))]]);
    expect([...parseRepoInfo(REPO, "repo", LIMIT).snapshots.values()].every((s) => s.prunedAncestorTxLogs.length === 0)).toBe(true);
  });

  it("reads the fixtures' headers", () => {
    expect(parseHeader(REPO, "repo")).toEqual({ writer: "ic-2.0.0-alpha.7", specVersion: 2, fileType: 6, compression: 1 });
    expect(parseHeader(SNAPSHOT_V1, "s")).toEqual({ writer: "ic-0.1.3", specVersion: 1, fileType: 1, compression: 1 });
  });

  for (const [object, bytes, parse] of PARSERS) {
    it(`refuses damaged headers of ${object}`, () => {
      const wrongMagic = bytes.slice();
      wrongMagic[3] ^= 0xff;
      expectCoded(() => parse(wrongMagic), "CODEC_FAILED", object);
      expectCoded(() => parse(bytes.subarray(0, 20)), "CODEC_FAILED", object);
      expectCoded(() => parse(new Uint8Array(0)), "CODEC_FAILED", object);
      const version = bytes.slice();
      version[36] = 3;
      expectCoded(() => parse(version), "UNSUPPORTED", object);
      const compression = bytes.slice();
      compression[38] = 2;
      expectCoded(() => parse(compression), "UNSUPPORTED", object);
      const type = bytes.slice();
      type[37] = type[37] === 4 ? 1 : 4;
      expectCoded(() => parse(type), "CODEC_FAILED", object);
      expectCoded(() => parse(bytes.subarray(0, bytes.length - 7)), "CODEC_FAILED", object);
    });
  }

  it("refuses a payload whose flatbuffer offsets point outside it", () => {
    const payload = snapshotPayload({ id: new Uint8Array(12), message: "m", flushedAtMicros: 1, nodes: [], manifestFiles: [] });
    const bad = payload.slice();
    new DataView(bad.buffer).setUint32(0, bad.length + 100, true);
    expectCoded(() => parseSnapshot(encodeFile(bad, FILE_TYPE.snapshot), "snapshots/X", LIMIT), "CODEC_FAILED", "snapshots/X");
    expect(parseSnapshot(encodeFile(payload, FILE_TYPE.snapshot, { compression: 0 }), "snapshots/X", LIMIT).message).toBe("m");
  });
});

describe("fuzzing the parsers with the fixtures' files", () => {
  for (const [object, bytes, parse] of PARSERS) {
    it(`${object}: any mutation parses or throws a ZarrError`, () => {
      // Mutations of the decompressed payload reach the flatbuffer reader (a mutated zstd frame rarely decodes).
      const header = bytes.subarray(0, 39);
      const payload = payloadOf(bytes);
      const check = (b: Uint8Array) => {
        try {
          parse(b);
        } catch (error) {
          if (!(error instanceof ZarrError)) throw error;
        }
      };
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), fc.nat(), (edits, cut) => {
          const mutated = payload.slice();
          for (const [at, value] of edits) mutated[at % mutated.length] = value;
          const raw = new Uint8Array(39 + mutated.length);
          raw.set(header);
          raw[38] = 0;
          raw.set(mutated, 39);
          check(raw);
          check(raw.subarray(0, 39 + (cut % (mutated.length + 1))));
          const zipped = bytes.slice();
          for (const [at, value] of edits) zipped[39 + (at % (zipped.length - 39))] = value;
          check(zipped);
        }),
        { numRuns: 300 },
      );
    });
  }
  it("random bytes after a valid header throw ZarrErrors", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(1, 2, 4, 6), (body, type) => {
        const parsers = [
          (b: Uint8Array) => parseRepoInfo(b, "r", LIMIT),
          (b: Uint8Array) => parseSnapshot(b, "s", LIMIT),
          (b: Uint8Array) => new Manifest(b, "m", LIMIT),
          (b: Uint8Array) => parseTransactionLog(b, "t", LIMIT),
        ];
        for (const parse of parsers) {
          try {
            parse(encodeFile(body, type, { compression: 0 }));
          } catch (error) {
            if (!(error instanceof ZarrError)) throw error;
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** The uncompressed flatbuffer of a zstd-compressed metadata file. */
function payloadOf(bytes: Uint8Array): Uint8Array {
  return zstdDecompress(bytes.subarray(39));
}

describe("inconsistent repositories", () => {
  const arrayMetadata = {
    zarr_format: 3, node_type: "array", shape: [4], data_type: "uint8", chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } }, fill_value: 0, codecs: [{ name: "bytes" }], attributes: {},
  };

  async function repoWith(chunks: Parameters<IcechunkWriter["commit"]>[1][number]["chunks"], specVersion: 1 | 2 = 2) {
    const storage = new MemoryStore();
    const writer = new IcechunkWriter(storage, { specVersion });
    await writer.init();
    const head = await writer.commit("c", [{ path: "/", metadata: { zarr_format: 3, node_type: "group", attributes: {} } }, { path: "/a", metadata: arrayMetadata, chunks }]);
    await writer.finish({ branches: { main: head } });
    return { storage, writer };
  }

  it("a ref pointing to a missing snapshot is NODE_NOT_FOUND naming it", async () => {
    for (const specVersion of [1, 2] as const) {
      const { storage, writer } = await repoWith([], specVersion);
      const head = idName(writer.snapshots.at(-1)?.id as Uint8Array);
      await storage.delete(`snapshots/${head}`);
      await expect(openIcechunk(storage)).rejects.toMatchObject({ code: "NODE_NOT_FOUND", message: expect.stringContaining(`snapshots/${head}`) });
    }
  });

  it("a missing manifest or chunk file is NODE_NOT_FOUND naming it", async () => {
    const { storage } = await repoWith([{ index: [0], chunkId: new Uint8Array(12).fill(1), offset: 0, length: 2 }]);
    const store = await openIcechunk(storage);
    await expect(store.get("a/c/0")).rejects.toMatchObject({ code: "NODE_NOT_FOUND", message: expect.stringContaining(`chunks/${idName(new Uint8Array(12).fill(1))}`) });
    for await (const key of storage.listPrefix("manifests/")) await storage.delete(key);
    await expect((await openIcechunk(storage)).get("a/c/0")).rejects.toMatchObject({ code: "NODE_NOT_FOUND", message: expect.stringContaining("manifests/") });
  });

  it("a manifest extent that disagrees with the array is METADATA_INVALID naming the manifest", async () => {
    const { storage, writer } = await repoWith([]);
    // A snapshot whose manifest covers chunks 0..5 of a 2-chunk dimension.
    const id = new Uint8Array(12).fill(9);
    const userData = new TextEncoder().encode(JSON.stringify(arrayMetadata));
    const payload = snapshotPayload({
      id, message: "bad extent", flushedAtMicros: 5, manifestFiles: [],
      nodes: [{ path: "/a", nodeId: new Uint8Array(8), userData, array: { shape: [4], chunkShape: [2], manifests: [{ id: new Uint8Array(12).fill(3), extents: [[0, 5]] }] } }],
    });
    await storage.set(`snapshots/${idName(id)}`, encodeFile(payload, FILE_TYPE.snapshot));
    writer.snapshots.push({ id, parent: 0, flushedAtMicros: 5, message: "bad extent" });
    await writer.finish({ branches: { main: writer.snapshots.length - 1 } });
    const store = await openIcechunk(storage);
    await expect(store.get("a/c/0")).rejects.toMatchObject({ code: "METADATA_INVALID", message: expect.stringContaining(`manifests/${idName(new Uint8Array(12).fill(3))}`) });
  });

  it("a negative (past 2^63) offset or a length past the end of the chunk file is CODEC_FAILED, never short data", async () => {
    const storage = new MemoryStore();
    const writer = new IcechunkWriter(storage);
    await writer.init();
    const { chunkId } = await writer.writeChunk(new Uint8Array([1, 2]));
    const head = await writer.commit("c", [{ path: "/a", metadata: arrayMetadata, chunks: [{ index: [0], chunkId, offset: -1, length: 2 }, { index: [1], chunkId, offset: 1, length: 2 }] }]);
    await writer.finish({ branches: { main: head } });
    const store = await openIcechunk(storage);
    await expect(store.get("a/c/0")).rejects.toMatchObject({ code: "CODEC_FAILED", message: expect.stringContaining("manifests/") });
    await expect(store.get("a/c/1")).rejects.toMatchObject({ code: "CODEC_FAILED", message: expect.stringMatching(/a\/c\/1.*past the end/) });
  });

  it("ref files that are not JSON, and snapshot ids that are not ids, are coded errors", async () => {
    const storage = new MemoryStore();
    await storage.set("refs/branch.main/ref.json", new TextEncoder().encode("{nope"));
    await expect(openIcechunk(storage)).rejects.toMatchObject({ code: "CODEC_FAILED", message: expect.stringContaining("refs/branch.main/ref.json") });
    await storage.set("refs/branch.main/ref.json", new TextEncoder().encode('{"snapshot":"short"}'));
    await expect(openIcechunk(storage)).rejects.toMatchObject({ code: "CODEC_FAILED" });
    const repo = await IcechunkRepository.open(storage);
    await expect(repo.store({ snapshot: "not an id" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(openIcechunk(storage, { branch: "a", tag: "b" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(openIcechunk(new MemoryStore())).rejects.toMatchObject({ code: "NODE_NOT_FOUND" });
  });
});
