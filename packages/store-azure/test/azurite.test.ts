/** AzureStore against a real Azurite Blob service on 127.0.0.1 (see azurite.ts). */
import { consolidateMetadata, createArray, createRegistry, get, open, openGroup, openStore, set } from "@zarr/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AzureStore, type AzureStoreOptions, azureStoreEntry } from "../src/index.js";
import { type Azurite, accountSas, createContainer, DEV_ACCOUNT, DEV_KEY, startAzurite } from "./azurite.js";

interface Seen {
  method: string;
  url: string;
  headers: Headers;
}

let azurite: Azurite;
let sas: string;
const seen: Seen[] = [];
const text = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

// Records every request the store sends, then sends it.
const recording = (url: string, init: RequestInit) => {
  seen.push({ method: init.method ?? "GET", url, headers: new Headers(init.headers) });
  return fetch(url, init);
};

function store(options: Partial<AzureStoreOptions> = {}): AzureStore {
  return new AzureStore({ container: "private", endpoint: azurite.endpoint, sasToken: sas, env: {}, retries: 0, fetch: recording, ...options });
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error("expected a rejection");
}

beforeAll(async () => {
  azurite = await startAzurite();
  sas = accountSas();
  await createContainer(azurite, "private", sas);
  await createContainer(azurite, "public", sas, true);
});
afterAll(async () => azurite?.close());
beforeEach(async () => {
  await store().deletePrefix("");
  await store({ container: "public" }).deletePrefix("");
  seen.length = 0;
});

describe("with a SAS token", () => {
  it("writes block blobs and reads them whole, by range and by size, every request signed and versioned", async () => {
    const s = store({ prefix: "data.zarr" });
    expect(s.readOnly).toBe(false);
    expect(s.url).toBe("az://private/data.zarr/");
    await s.set("a/c/0", text("hello world"));
    expect(decode(await s.get("a/c/0"))).toBe("hello world");
    expect(decode(await s.getRange("a/c/0", { offset: 6 }))).toBe("world");
    expect(decode(await s.getRange("a/c/0", { offset: 1, length: 3 }))).toBe("ell");
    expect(decode(await s.getRange("a/c/0", { suffixLength: 3 }))).toBe("rld");
    expect(decode(await s.getRange("a/c/0", { suffixLength: 50 }))).toBe("hello world");
    expect(decode(await s.getRange("a/c/0", { offset: 20 }))).toBe("");
    expect(await s.getSize("a/c/0")).toBe(11);
    expect(await s.get("a/c/9")).toBeUndefined();
    expect(await s.getRange("a/c/9", { suffixLength: 2 })).toBeUndefined();
    const targets = [new Uint8Array(2), new Uint8Array(3)];
    expect(await s.readInto("a/c/0", [{ offset: 0, target: targets[0] }, { offset: 8, target: targets[1] }])).toBe(11);
    expect(targets.map(decode)).toEqual(["he", "rld"]);
    for (const r of seen) {
      expect(new URL(r.url).searchParams.get("sig"), r.url).not.toBeNull();
      expect(r.headers.get("x-ms-version")).toBe("2021-08-06");
      // Blob Storage has no suffix ranges: they go as HEAD + offset range.
      expect(r.headers.get("range") ?? "").not.toMatch(/^bytes=-/);
    }
    const put = seen.find((r) => r.method === "PUT");
    expect(put?.headers.get("x-ms-blob-type")).toBe("BlockBlob");
    expect(put?.url.startsWith(`${azurite.endpoint}/private/data.zarr/a/c/0?`)).toBe(true);
  });

  it("lists one level and whole prefixes, following NextMarker across pages", async () => {
    const s = store({ prefix: "tree", listPageSize: 2 });
    for (const key of ["zarr.json", "a/zarr.json", "a/c/0", "a/c/1", "b/zarr.json", "x y&z.txt"]) await s.set(key, text(key));
    expect(await s.listDir("")).toEqual({ keys: ["x y&z.txt", "zarr.json"], prefixes: ["a", "b"] });
    expect(await s.listDir("a/")).toEqual({ keys: ["zarr.json"], prefixes: ["c"] });
    expect((await collect(s.list())).sort()).toEqual(["a/c/0", "a/c/1", "a/zarr.json", "b/zarr.json", "x y&z.txt", "zarr.json"]);
    expect(await collect(s.listPrefix("a/c/"))).toEqual(["a/c/0", "a/c/1"]);
    const listings = seen.filter((r) => r.url.includes("comp=list"));
    expect(listings.some((r) => r.url.includes("marker="))).toBe(true);
    expect(listings.every((r) => r.url.includes("restype=container") && r.url.includes("maxresults=2"))).toBe(true);
    await s.deletePrefix("a/");
    expect((await collect(s.list())).sort()).toEqual(["b/zarr.json", "x y&z.txt", "zarr.json"]);
    await s.delete("zarr.json");
    await s.delete("zarr.json"); // a missing blob is fine
    expect(await s.get("zarr.json")).toBeUndefined();
  });

  it("writes conditionally: If-Match and If-None-Match: * (Blob Storage's 409 is STORE_CHANGED)", async () => {
    const s = store();
    await s.setIfVersion("k", text("one"), null);
    expect((await rejection(s.setIfVersion("k", text("two"), null))).code).toBe("STORE_CHANGED");
    const v1 = await s.getVersioned("k", undefined);
    expect(v1?.version).toMatch(/^"0x[0-9A-F]+"$/);
    await s.setIfVersion("k", text("two"), v1?.version as string);
    expect((await rejection(s.setIfVersion("k", text("three"), v1?.version as string))).code).toBe("STORE_CHANGED");
    expect((await rejection(s.getVersioned("k", { suffixLength: 2 }, { ifVersion: v1?.version }))).code).toBe("STORE_CHANGED");
    expect(decode(await s.get("k"))).toBe("two");
  });

  it("fails with STORE_FAILED and no signature in the message when the SAS is wrong", async () => {
    const forged = accountSas({ key: Buffer.from("not the key").toString("base64") });
    const signature = new URLSearchParams(forged).get("sig") as string;
    const s = store({ sasToken: forged });
    for (const failing of [() => s.get("k"), () => s.listDir(""), () => s.set("k", text("x"))]) {
      const error = await rejection(failing());
      expect(error.code).toBe("STORE_FAILED");
      expect(error.message).toContain("403");
      expect(error.message).not.toContain(signature);
      expect(error.message).not.toContain(encodeURIComponent(signature));
    }
  });

  it("fails listing a missing container with STORE_FAILED naming ContainerNotFound", async () => {
    const error = await rejection(store({ container: "nope" }).listDir(""));
    expect(error.code).toBe("STORE_FAILED");
    expect(error.message).toContain("Listing az://nope/ failed: HTTP 404 ContainerNotFound");
  });
});

describe("anonymous", () => {
  it("reads and lists a public container; writes are refused before any request", async () => {
    await store({ container: "public" }).set("p/zarr.json", text("{}"));
    seen.length = 0;
    const s = new AzureStore({ container: "public", prefix: "p", endpoint: azurite.endpoint, env: { AZURE_STORAGE_SAS_TOKEN: sas }, anonymous: true, fetch: recording });
    expect(s.signed).toBe(false);
    expect(s.readOnly).toBe(true);
    expect(decode(await s.get("zarr.json"))).toBe("{}");
    expect(await s.listDir("")).toEqual({ keys: ["zarr.json"], prefixes: [] });
    expect(seen.every((r) => !r.url.includes("sig="))).toBe(true);
    seen.length = 0;
    const error = await rejection(s.set("x", text("x")));
    expect(error.code).toBe("STORE_READ_ONLY");
    expect(error.message).toContain("anonymous: pass sasToken or accountKey");
    expect(seen).toEqual([]);
  });

  it("cannot list a private container", async () => {
    const s = new AzureStore({ container: "private", endpoint: azurite.endpoint, env: {}, retries: 0 });
    expect((await rejection(s.listDir(""))).code).toBe("STORE_FAILED");
  });
});

describe("through @zarr/core and openStore", () => {
  const registry = createRegistry([azureStoreEntry]);

  it("creates, consolidates and reads a hierarchy via azure+http:// and az:// URLs", async () => {
    const writer = await openStore(`azure+http://${azurite.endpoint.slice("http://".length)}/private/climate.zarr`, { registry, sasToken: sas, env: {} });
    expect((writer as AzureStore).url).toBe("az://private/climate.zarr/");
    const array = await createArray(writer, "t2m", { shape: [2, 3], chunkShape: [1, 3], dataType: "float32", fillValue: 0 });
    await set(array, null, Float32Array.from([1, 2, 3, 4, 5, 6]));
    await consolidateMetadata(writer);
    const env = { ZARR_AZURE_ENDPOINT: azurite.endpoint, AZURE_STORAGE_SAS_TOKEN: `?${sas}` };
    const reader = (await openStore("az://private/climate.zarr", { registry, env, readOnly: true })) as AzureStore;
    expect(reader.readOnly).toBe(true);
    expect(reader.signed).toBe(true);
    const root = await openGroup(reader);
    expect(root.path).toBe("");
    const t2m = await open(reader, "t2m");
    expect(Array.from((await get(t2m as never, [1, null])).data as Float32Array)).toEqual([4, 5, 6]);
    expect((await reader.listDir("t2m/c/")).prefixes).toEqual(["0", "1"]);
  });
});

describe("with Shared Key", () => {
  it("signs every request with the account key: reads, ranges, writes, conditional writes, listing", async () => {
    const s = new AzureStore({ container: "private", prefix: "shared key", account: DEV_ACCOUNT, accountKey: DEV_KEY, endpoint: azurite.endpoint, env: {}, retries: 0, fetch: recording });
    expect([s.auth, s.signed, s.readOnly]).toEqual(["sharedKey", true, false]);
    await s.set("a b/c&d", text("hello world"));
    await s.set("empty", new Uint8Array(0));
    expect(decode(await s.get("a b/c&d"))).toBe("hello world");
    expect(decode(await s.getRange("a b/c&d", { suffixLength: 5 }))).toBe("world");
    expect(await s.getSize("empty")).toBe(0);
    await s.setIfVersion("v", text("1"), null);
    expect((await rejection(s.setIfVersion("v", text("2"), null))).code).toBe("STORE_CHANGED");
    expect(await s.listDir("")).toEqual({ keys: ["empty", "v"], prefixes: ["a b"] });
    await s.deletePrefix("");
    expect(await collect(s.list())).toEqual([]);
    expect(seen.length).toBeGreaterThan(10);
    for (const r of seen) {
      expect(r.headers.get("authorization")).toMatch(/^SharedKey devstoreaccount1:[A-Za-z0-9+/]+=*$/);
      expect(r.headers.get("x-ms-date")).not.toBeNull();
      expect(r.url).not.toContain("sig=");
    }
  });

  it("takes the key from AZURE_STORAGE_KEY; a wrong key fails with 403 and is never printed", async () => {
    const env = { ZARR_AZURE_ENDPOINT: azurite.endpoint, AZURE_STORAGE_ACCOUNT: DEV_ACCOUNT, AZURE_STORAGE_KEY: DEV_KEY };
    const registry = createRegistry([azureStoreEntry]);
    const fromEnv = (await openStore("az://private/env", { registry, env })) as AzureStore;
    expect(fromEnv.auth).toBe("sharedKey");
    await fromEnv.set("k", text("v"));
    expect(decode(await fromEnv.get("k"))).toBe("v");
    const wrongKey = Buffer.from("definitely not the account key").toString("base64");
    const wrong = new AzureStore({ container: "private", account: DEV_ACCOUNT, accountKey: wrongKey, endpoint: azurite.endpoint, env: {}, retries: 0 });
    for (const failing of [() => wrong.get("env/k"), () => wrong.listDir(""), () => wrong.set("x", text("x"))]) {
      const error = await rejection(failing());
      expect(error.code).toBe("STORE_FAILED");
      expect(error.message).toContain("403");
      expect(error.message).not.toContain(wrongKey);
    }
  });
});
