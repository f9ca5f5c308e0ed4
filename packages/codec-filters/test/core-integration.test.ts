/**
 * The codecs inside real arrays, through @zarr/core: zarr-python 3 fixtures, v2 fixture
 * chunks decoded with the filters, and arrays written with every codec and read back,
 * with the stored chunks checked against numcodecs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import {
  createArray,
  createRegistry,
  get,
  MemoryStore,
  openArray,
  set,
  slice,
  type ZarrArray,
} from "@zarr/core";
import type { ArrayToArrayCodec, ArrayToBytesCodec, BytesToBytesCodec, DataType, JsonObject, ReadableStore, TypedArray } from "@zarr/spec";
import { beforeAll, describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { filterCodecs } from "../src/index.js";
import { b64, buildContext, ctx, dataType, fromLE, nd, python, rng } from "./helpers.js";

const registry = createRegistry(filterCodecs);
const FIXTURES = join(fixturesDir(), "zarr-python");

/** A read-only store over a directory. */
function directoryStore(root: string): ReadableStore {
  return {
    async get(key) {
      try {
        return new Uint8Array(readFileSync(join(root, key)));
      } catch {
        return undefined;
      }
    },
  };
}

const expected = (version: "v2" | "v3", name: string) =>
  JSON.parse(readFileSync(join(FIXTURES, "expected", version, `${name}.json`), "utf8")) as { shape: number[]; values: unknown[] };

describe("zarr-python 3 fixtures", () => {
  for (const name of ["1d.contiguous.delta.i4", "3d.contiguous.delta.i4.mixed"]) {
    it(`reads ${name}`, async () => {
      const store = directoryStore(join(FIXTURES, "v3", "data.zarr"));
      const arr = await openArray(store, name, { registry });
      const data = await get(arr);
      const want = expected("v3", name);
      expect(data.shape).toEqual(want.shape);
      expect(Array.from(data.data as Int32Array).map(String)).toEqual(want.values);
      expect(arr.codecs.toJSON().find((c) => c.name === "numcodecs.delta")).toEqual({
        name: "numcodecs.delta",
        configuration: { dtype: "int32", astype: "int32" },
      });
    });
  }
});

describe("zarr-python 2 fixture chunks through the filters", () => {
  interface ZArray {
    dtype: string;
    shape: number[];
    compressor: { id: string } | null;
    filters: (JsonObject & { id: string })[] | null;
  }
  const cases: [string, string][] = [
    ["1d.contiguous.delta.i2", "int16"],
    ["1d.contiguous.delta.shuffle.i2", "int16"],
    ["1d.contiguous.shuffle.i2", "int16"],
    ["1d.contiguous.fixedscaleoffset.f4", "float32"],
    ["1d.contiguous.bitround.f4", "float32"],
    ["1d.contiguous.json2.O", "string"],
  ];
  for (const [name, typeName] of cases) {
    it(`decodes ${name}`, async () => {
      const dir = join(FIXTURES, "v2", "data.zarr", name);
      const meta = JSON.parse(readFileSync(join(dir, ".zarray"), "utf8")) as ZArray;
      let bytes = new Uint8Array(readFileSync(join(dir, "0")));
      if (meta.compressor?.id === "zlib") bytes = new Uint8Array(inflateSync(bytes));
      else expect(meta.compressor).toBeNull();
      const dt = await dataType(typeName);
      const shape = meta.shape;
      // filters apply in order when writing; undo them in reverse
      const filters = [...(meta.filters ?? [])].reverse();
      let array: { data: TypedArray | unknown[]; shape: number[] } | undefined;
      for (const f of filters) {
        const { id, ...config } = f;
        const entry = registry.codec(`numcodecs.${id}`);
        const codec = await (await entry).fromConfig(config as JsonObject, buildContext(dt, shape));
        if (codec.kind === "bytes_to_bytes") bytes = (await (codec as BytesToBytesCodec).decode(bytes, ctx)) as Uint8Array<ArrayBuffer>;
        else if (codec.kind === "array_to_bytes") array = (await (codec as ArrayToBytesCodec).decode(bytes, { shape, dataType: dt, fillValue: "" }, ctx)) as never;
        else {
          const spec = { shape, dataType: dt, fillValue: 0 };
          const encDt = (codec as ArrayToArrayCodec).encodedSpec(spec).dataType;
          const input = array ?? { data: fromLE(encDt, bytes), shape };
          array = (await (codec as ArrayToArrayCodec).decode(nd(input.data as TypedArray, shape), spec, ctx)) as never;
        }
      }
      const values = array?.data ?? fromLE(dt, bytes);
      const want = expected("v2", name).values;
      expect(Array.from(values as ArrayLike<unknown>).map((v) => (typeof v === "number" && typeName !== "float32" ? String(v) : v))).toEqual(want);
    });
  }
});

interface Written {
  label: string;
  arr: ZarrArray;
  store: MemoryStore;
  values: TypedArray | string[];
  read: TypedArray | unknown[];
}

/** Writes `values` into a fresh array with `codecs` and reads them back. */
async function write(
  label: string,
  dataTypeName: string,
  shape: number[],
  chunkShape: number[],
  codecs: unknown[],
  values: TypedArray | string[],
  fillValue?: unknown,
): Promise<Written> {
  const store = new MemoryStore();
  const arr = await createArray(store, "a", {
    shape,
    chunkShape,
    dataType: dataTypeName,
    codecs: codecs as never,
    registry,
    ...(fillValue === undefined ? {} : { fillValue: fillValue as never }),
  });
  await set(arr, null, { data: values, shape } as never);
  const back = await openArray(store, "a", { registry });
  const read = (await get(back)).data as TypedArray | unknown[];
  return { label, arr: back, store, values, read };
}

describe("arrays written with every codec", () => {
  const r = rng(11);
  const ints = new Int32Array(240).map((_, i) => Math.floor(Math.sin(i / 7) * 1000) + i);
  const floats = new Float64Array(240).map(() => 1000 + r() * 0.5);
  const f32 = new Float32Array(240).map(() => (r() - 0.5) * 100);
  const bools = new Uint8Array(240).map(() => (r() < 0.3 ? 1 : 0));
  const names = Array.from({ length: 240 }, (_, i) => ["alpha", "beta", "gamma", "δέλτα", ""][i % 5]);
  const written: Written[] = [];

  beforeAll(async () => {
    written.push(await write("delta", "int32", [12, 20], [5, 8], [{ name: "numcodecs.delta", configuration: { dtype: "<i4" } }, { name: "bytes", configuration: { endian: "little" } }], ints));
    written.push(
      await write(
        "transpose+delta+crc32",
        "int32",
        [12, 20],
        [5, 8],
        [{ name: "transpose", configuration: { order: [1, 0] } }, { name: "numcodecs.delta", configuration: { dtype: "int32", astype: "<i8" } }, { name: "bytes", configuration: { endian: "little" } }, { name: "numcodecs.crc32", configuration: {} }],
        ints,
      ),
    );
    written.push(
      await write(
        "fixedscaleoffset+adler32",
        "float64",
        [12, 20],
        [6, 10],
        [
          { name: "numcodecs.fixedscaleoffset", configuration: { offset: 1000, scale: 1000, dtype: "<f8", astype: "<u2" } },
          { name: "bytes", configuration: { endian: "little" } },
          { name: "numcodecs.adler32", configuration: {} },
        ],
        floats,
        1000,
      ),
    );
    written.push(
      await write(
        "quantize+shuffle+fletcher32",
        "float32",
        [240],
        [64],
        [
          { name: "numcodecs.quantize", configuration: { digits: 2, dtype: "<f4" } },
          { name: "bytes", configuration: { endian: "little" } },
          { name: "numcodecs.shuffle", configuration: { elementsize: 4 } },
          { name: "numcodecs.fletcher32", configuration: {} },
        ],
        f32,
      ),
    );
    written.push(await write("bitround", "float32", [240], [100], [{ name: "bitround", configuration: { keepbits: 6 } }, { name: "bytes", configuration: { endian: "little" } }], f32));
    written.push(
      await write("numcodecs.bitround+jenkins", "float32", [240], [100], [
        { name: "numcodecs.bitround", configuration: { keepbits: 6 } },
        { name: "bytes", configuration: { endian: "little" } },
        { name: "numcodecs.jenkins_lookup3", configuration: { initval: 3 } },
      ], f32),
    );
    written.push(await write("astype", "float64", [240], [50], [{ name: "numcodecs.astype", configuration: { encode_dtype: "<f4", decode_dtype: "<f8" } }, { name: "bytes", configuration: { endian: "big" } }], floats));
    written.push(await write("numcodecs.packbits", "bool", [12, 20], [5, 7], [{ name: "numcodecs.packbits", configuration: {} }, "bytes"], bools));
    written.push(await write("packbits", "bool", [12, 20], [5, 7], [{ name: "packbits", configuration: { padding_encoding: "first_byte" } }], bools));
    written.push(await write("packbits int32 bits", "int32", [240], [64], [{ name: "packbits", configuration: { first_bit: 0, last_bit: 11 } }, { name: "numcodecs.crc32", configuration: { location: "end" } }], new Int32Array(240).map((_, i) => (i % 4000) - 2000)));
    written.push(await write("categorize", "string", [240], [64], [{ name: "numcodecs.categorize", configuration: { labels: ["alpha", "beta", "gamma", "δέλτα"], dtype: "|O", astype: "|u1" } }, "bytes"], names));
    written.push(await write("json2", "string", [12, 20], [5, 8], [{ name: "numcodecs.json2", configuration: {} }], names));
    written.push(await write("msgpack2", "string", [12, 20], [5, 8], [{ name: "numcodecs.msgpack2", configuration: {} }, { name: "numcodecs.adler32", configuration: { location: "end" } }], names));
    written.push(
      await write(
        "scale_offset+cast_value",
        "float32",
        [240],
        [64],
        [
          { name: "scale_offset", configuration: { offset: 0, scale: 100 } },
          { name: "cast_value", configuration: { data_type: "int16", out_of_range: "clamp", scalar_map: { encode: [["NaN", -32768]], decode: [[-32768, "NaN"]] } } },
          { name: "bytes", configuration: { endian: "little" } },
        ],
        f32.map((v, i) => (i % 17 === 0 ? Number.NaN : v)),
        "NaN",
      ),
    );
    written.push(await write("reshape", "uint16", [6, 8, 10], [3, 4, 10], [{ name: "reshape", configuration: { shape: [[0, 1], -1] } }, { name: "bytes", configuration: { endian: "big" } }], new Uint16Array(480).map((_, i) => i * 7)));
  });

  const byLabel = (label: string) => written.find((w) => w.label === label) as Written;

  it("reads back exactly what lossless chains stored", () => {
    for (const label of ["delta", "transpose+delta+crc32", "numcodecs.packbits", "packbits", "packbits int32 bits", "json2", "msgpack2", "reshape"]) {
      const w = byLabel(label);
      expect(Array.from(w.read as ArrayLike<unknown>), label).toEqual(Array.from(w.values as ArrayLike<unknown>));
    }
    const cat = byLabel("categorize");
    expect(cat.read).toEqual(names.map((n) => (n === "" ? "" : n)));
  });

  it("reads back lossy chains within their precision", () => {
    const close = (label: string, tolerance: number) => {
      const w = byLabel(label);
      const got = w.read as Float64Array;
      const want = w.values as Float64Array;
      for (let i = 0; i < want.length; i++) {
        if (Number.isNaN(want[i])) expect(got[i]).toBeNaN();
        else expect(Math.abs(got[i] - want[i]), `${label} [${i}]`).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(want[i])));
      }
    };
    close("fixedscaleoffset+adler32", 0.0006);
    close("quantize+shuffle+fletcher32", 0.01);
    close("bitround", 2 ** -6);
    close("numcodecs.bitround+jenkins", 2 ** -6);
    close("astype", 1e-7);
    close("scale_offset+cast_value", 0.006);
  });

  it("writes configurations with every parameter", () => {
    const codecs = (label: string) => byLabel(label).arr.metadata.codecs;
    expect(codecs("fixedscaleoffset+adler32")).toEqual([
      { name: "numcodecs.fixedscaleoffset", configuration: { offset: 1000, scale: 1000, dtype: "<f8", astype: "<u2" } },
      { name: "bytes", configuration: { endian: "little" } },
      { name: "numcodecs.adler32", configuration: { location: "start" } },
    ]);
    expect(codecs("json2")[0]).toEqual({
      name: "numcodecs.json2",
      configuration: {
        encoding: "utf-8",
        skipkeys: false,
        ensure_ascii: true,
        check_circular: true,
        allow_nan: true,
        indent: null,
        separators: [",", ":"],
        sort_keys: true,
        strict: true,
      },
    });
    expect(codecs("msgpack2")[0]).toEqual({ name: "numcodecs.msgpack2", configuration: { raw: false, use_single_float: false, use_bin_type: true } });
  });

  it("stores chunks numcodecs decodes to the same values", async () => {
    const chunk = (label: string, key: string) => b64(byLabel(label).store.map.get(`a/${key}`) as Uint8Array);
    const theirs = python<Record<string, unknown[]>>(
      `
from numcodecs import Delta, CRC32, FixedScaleOffset, Adler32, JSON, MsgPack, PackBits, Categorize, Quantize, Shuffle
c = {k: unb64(v) for k, v in data.items()}
out = {}
out["delta"] = Delta("<i4").decode(np.frombuffer(c["delta"], "<i4")).tolist()
out["transpose"] = Delta("<i4", astype="<i8").decode(np.frombuffer(CRC32().decode(c["transpose"]), "<i8")).tolist()
out["fso"] = FixedScaleOffset(1000, 1000, "<f8", "<u2").decode(np.frombuffer(Adler32().decode(c["fso"]), "<u2")).tolist()
out["json2"] = JSON().decode(c["json2"]).reshape(-1).tolist()
out["msgpack2"] = MsgPack().decode(c["msgpack2"][:-4]).reshape(-1).tolist()
out["packbits"] = PackBits().decode(np.frombuffer(c["packbits"], "u1")).astype(int).tolist()
out["categorize"] = Categorize(["alpha", "beta", "gamma", "δέλτα"], dtype=object).decode(np.frombuffer(c["categorize"], "u1")).tolist()
print(json.dumps(out))
`,
      {
        delta: chunk("delta", "c/0/0"),
        transpose: chunk("transpose+delta+crc32", "c/0/0"),
        fso: chunk("fixedscaleoffset+adler32", "c/0/0"),
        json2: chunk("json2", "c/0/0"),
        msgpack2: chunk("msgpack2", "c/0/0"),
        packbits: chunk("numcodecs.packbits", "c/0/0"),
        categorize: chunk("categorize", "c/0"),
      },
    );
    const block = (values: ArrayLike<unknown>, rows: number, cols: number, width: number) => {
      const out: unknown[] = [];
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out.push(values[r * width + c]);
      return out;
    };
    expect(theirs.delta).toEqual(block(ints, 5, 8, 20));
    // transpose first: the chunk holds the 8×5 transpose of the top-left 5×8 block
    const tr: unknown[] = [];
    for (let c = 0; c < 8; c++) for (let r = 0; r < 5; r++) tr.push(ints[r * 20 + c]);
    expect(theirs.transpose).toEqual(tr);
    const fso = byLabel("fixedscaleoffset+adler32").read as Float64Array;
    expect(theirs.fso).toEqual(block(fso, 6, 10, 20));
    expect(theirs.json2).toEqual(block(names, 5, 8, 20));
    expect(theirs.msgpack2).toEqual(block(names, 5, 8, 20));
    expect(theirs.packbits).toEqual(block(bools, 5, 7, 20));
    expect(theirs.categorize).toEqual(names.slice(0, 64));
  });

  it("updates part of an array and reads missing chunks as the fill value", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "p", {
      shape: [30],
      chunkShape: [10],
      dataType: "int16",
      fillValue: 7,
      codecs: [
        { name: "numcodecs.delta", configuration: { dtype: "<i2" } },
        { name: "bytes", configuration: { endian: "little" } },
        { name: "numcodecs.fletcher32", configuration: {} },
      ] as never,
      registry,
    });
    await set(arr, [slice(5, 12)], { data: new Int16Array([1, 2, 3, 4, 5, 6, 7]), shape: [7] } as never);
    const data = await get(arr);
    expect(Array.from(data.data as Int16Array)).toEqual([7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]);
    // corrupt a stored chunk: the checksum names it
    const key = "p/c/1";
    const bytes = (store.map.get(key) as Uint8Array).slice();
    bytes[0] ^= 1;
    store.map.set(key, bytes);
    await expect(get(arr)).rejects.toMatchObject({ code: "CHECKSUM_MISMATCH", key });
  });

  it("reports bad configurations with the JSON path when opening", async () => {
    const store = new MemoryStore();
    await expect(
      createArray(store, "bad", {
        shape: [4],
        dataType: "int32",
        codecs: [{ name: "numcodecs.delta", configuration: { dtype: "<i2" } }, { name: "bytes", configuration: { endian: "little" } }] as never,
        registry,
      }),
    ).rejects.toMatchObject({ code: "METADATA_INVALID", jsonPath: "$.codecs[0].configuration.dtype" });
  });
});

describe("types used only through the pipeline", () => {
  it("resolves encoded data types through the registry", async () => {
    const dt: DataType = await dataType("float64");
    expect(dt.name).toBe("float64");
  });
});
