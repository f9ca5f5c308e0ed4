import { describe, expect, it } from "vitest";
import {
  type CodecEntry,
  createArray,
  createRegistry,
  defaultRegistry,
  get,
  type LazyEntry,
  MemoryStore,
  openArray,
  set,
  type ZarrError,
} from "../src/index.js";

/** A toy bytes→bytes codec that XORs every byte (the third-party template shape). */
const xorCodec: CodecEntry = {
  type: "codec",
  name: "example.xor",
  codecKind: "bytes_to_bytes",
  package: "example-xor",
  fromConfig(configuration) {
    const key = Number(configuration.key ?? 0x5a);
    const apply = (b: Uint8Array) => b.map((x) => x ^ key);
    return { kind: "bytes_to_bytes", name: "example.xor", encode: apply, decode: apply, toJSON: () => ({ name: "example.xor", configuration: { key } }) };
  },
};

describe("registry", () => {
  it("resolves third-party codecs, eagerly or lazily (loaded once)", async () => {
    let loads = 0;
    const lazy: LazyEntry = {
      type: "codec",
      name: "example.xor",
      lazy: true,
      load: async () => {
        loads++;
        return xorCodec;
      },
    };
    for (const registry of [createRegistry([xorCodec]), createRegistry([lazy])]) {
      const store = new MemoryStore();
      const arr = await createArray(store, "x", {
        shape: [3],
        dataType: "uint8",
        codecs: ["bytes", { name: "example.xor", configuration: { key: 1 } }],
        registry,
      });
      await set(arr, null, new Uint8Array([1, 2, 3]));
      expect(Array.from(store.map.get("x/c/0") ?? [])).toEqual([0, 3, 2]);
      const again = await openArray(store, "x", { registry });
      expect(Array.from((await get(again)).data as Uint8Array)).toEqual([1, 2, 3]);
    }
    expect(loads).toBe(1);
  });

  it("alone, names the missing codec and where it is, and says to install its package or use @zarr/all", async () => {
    const store = new MemoryStore();
    const e = await createArray(store, "x", { shape: [3], dataType: "uint8", codecs: ["bytes", "zstd"] }).catch((x: ZarrError) => x);
    expect((e as ZarrError).code).toBe("CODEC_UNKNOWN");
    expect((e as ZarrError).jsonPath).toBe("$.codecs[1]");
    expect((e as ZarrError).message).toMatch(
      /^Codec "zstd" \(at \$\.codecs\[1\] in "x\/zarr\.json"\) is not registered\. Install the package that provides it .*or use @zarr\/all/,
    );
    // Core carries no table of packages: that is @zarr/all's job.
    expect((e as ZarrError).message).not.toContain("@zarr/codec-zstd");
  });

  it("names the package from the registry's providerOf, kept by extend", async () => {
    const seen: string[] = [];
    const providerOf = (type: string, name: string) => {
      seen.push(`${type}:${name}`);
      return name === "zstd" ? "some-zstd-package" : undefined;
    };
    const registry = createRegistry([], { providerOf }).extend(xorCodec);
    const e = await registry.codec("zstd", { key: "a/zarr.json", path: ["codecs", 0] }).catch((x: ZarrError) => x);
    expect((e as ZarrError).message).toMatch(/^Codec "zstd" \(at \$\.codecs\[0\] in "a\/zarr\.json"\) is not registered\. It is provided by some-zstd-package: install it/);
    const other = await registry.codec("mystery").catch((x: ZarrError) => x);
    expect((other as ZarrError).message).toContain("No installed package provides it");
    expect(seen).toEqual(["codec:zstd", "codec:mystery"]);
  });

  it("reports a failing lazy load as UNSUPPORTED", async () => {
    const registry = createRegistry([
      { type: "codec", name: "broken", lazy: true, package: "broken-pkg", load: () => Promise.reject(new Error("nope")) },
    ]);
    const e = await registry.codec("broken").catch((x: ZarrError) => x);
    expect((e as ZarrError).code).toBe("UNSUPPORTED");
    expect((e as ZarrError).message).toContain("broken-pkg");
  });

  it("keeps registries separate; extend copies", () => {
    const a = createRegistry();
    const b = a.extend(xorCodec);
    expect(a.has("codec", "example.xor")).toBe(false);
    expect(b.has("codec", "example.xor")).toBe(true);
    expect(defaultRegistry.has("codec", "bytes")).toBe(true);
    expect(defaultRegistry.has("data_type", "r24")).toBe(true);
  });

  it("skips an unknown codec marked must_understand: false", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "x", { shape: [2], dataType: "uint8", codecs: ["bytes"] });
    await set(arr, null, new Uint8Array([5, 6]));
    const doc = JSON.parse(new TextDecoder().decode(store.map.get("x/zarr.json")));
    doc.codecs.push({ name: "somebody.checksum", configuration: {}, must_understand: false });
    await store.set("x/zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
    expect(Array.from((await get(await openArray(store, "x"))).data as Uint8Array)).toEqual([5, 6]);
  });

  it("holds every built-in data type, and the rarely used other built-ins, as lazy entries that load on first use, r<N> claimed without loading", async () => {
    const registry = createRegistry();
    const entry = (type: string, name: string) =>
      registry.list().find((e) => e.type === type && e.name === name) as { lazy?: true; package?: string } | undefined;
    for (const [type, name] of [
      ["data_type", "bool"],
      ["data_type", "int8"],
      ["data_type", "uint64"],
      ["data_type", "float32"],
      ["data_type", "float64"],
      ["data_type", "float16"],
      ["data_type", "string"],
      ["data_type", "r*"],
      ["data_type", "numpy.datetime64"],
      ["data_type", "struct"],
      ["data_type", "object"],
      ["chunk_grid", "rectilinear"],
      ["codec", "transpose"],
    ]) {
      expect(entry(type, name), `${type} ${name}`).toMatchObject({ lazy: true, package: "@zarr/core" });
    }
    for (const [type, name] of [
      ["chunk_grid", "regular"],
      ["codec", "bytes"],
    ]) {
      expect(entry(type, name)?.lazy, `${type} ${name}`).toBeUndefined();
    }
    expect(registry.has("data_type", "r16")).toBe(true);
    expect(registry.has("data_type", "datetime64")).toBe(true); // an alias of a lazy entry
    expect(registry.has("data_type", "r")).toBe(false);
    const r24 = await registry.dataType("r24");
    expect(r24.fromConfig("r24", {}, ["data_type"]).byteSize).toBe(3);
    expect((await registry.dataType("variable_length_bytes")).name).toBe("bytes");
    await expect(registry.dataType("r12").then((e) => e.fromConfig("r12", {}, ["data_type"]))).rejects.toMatchObject({ code: "METADATA_INVALID" });
    const store = new MemoryStore();
    const t = await createArray(store, "t", { shape: [2, 3], dataType: "float16", codecs: [{ name: "transpose", configuration: { order: [1, 0] } }, "bytes"], registry });
    await set(t, null, Float32Array.from([1, 2, 3, 4, 5, 6]));
    expect(Array.from((await get(await openArray(store, "t", { registry }))).data as Float32Array)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
