/** URL forms, settings and the suffix-range mend, without a server. */
import { createRegistry, openStore } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { AzureStore, azureStoreEntry, parseAzureUrl } from "../src/index.js";

const SAS = "sv=2019-12-12&ss=b&srt=sco&sp=r&se=2030-01-01T00%3A00%3A00Z&sig=abc%3D";

describe("parseAzureUrl", () => {
  it("reads every accepted form", () => {
    expect(parseAzureUrl("az://climate/era5.zarr?account=acct1")).toEqual({ container: "climate", prefix: "era5.zarr", account: "acct1" });
    expect(parseAzureUrl("abfs://climate")).toEqual({ container: "climate", prefix: "" });
    expect(parseAzureUrl("abfss://climate@acct1.dfs.core.windows.net/a/b%20c")).toEqual({
      container: "climate", prefix: "a/b c", account: "acct1", endpoint: "https://acct1.blob.core.windows.net",
    });
    expect(parseAzureUrl(`azure+https://acct1.blob.core.windows.net/climate/era5.zarr?${SAS}`)).toEqual({
      container: "climate", prefix: "era5.zarr", account: "acct1", endpoint: "https://acct1.blob.core.windows.net", sasToken: SAS,
    });
    expect(parseAzureUrl("azure+http://127.0.0.1:10000/devstoreaccount1/cc1/p/q")).toEqual({
      container: "cc1", prefix: "p/q", account: "devstoreaccount1", endpoint: "http://127.0.0.1:10000/devstoreaccount1",
    });
    expect(parseAzureUrl("az://cc1/p?anonymous=true&endpoint=http%3A%2F%2Fh%3A1%2Facct")).toEqual({ container: "cc1", prefix: "p", anonymous: true, endpoint: "http://h:1/acct" });
  });

  it("refuses what it cannot read with INVALID_ARGUMENT", () => {
    for (const [url, words] of [
      ["az:///x", "no container"],
      ["az://c/p?sig=x", 'unknown option "sig"'],
      ["az://c/p?anonymous=maybe", "anonymous must be true or false"],
      ["abfss://c@not-azure.example.com/p", "expected container@ACCOUNT"],
      ["s3://c/p", "expected az://"],
      ["azure+https://user:pw@acct1.blob.core.windows.net/c", "no credentials"],
      ["azure+http://127.0.0.1:10000/", "no account"],
      ["az://c/%zz", "percent-encoding"],
    ]) {
      expect(() => parseAzureUrl(url), url).toThrow(words);
    }
  });
});

describe("settings", () => {
  it("builds the endpoint from the account, the option or the environment", () => {
    expect(new AzureStore({ container: "cc1", account: "acct1", env: {} }).endpoint).toBe("https://acct1.blob.core.windows.net");
    expect(new AzureStore({ container: "cc1", env: { AZURE_STORAGE_ACCOUNT: "acct2" } }).endpoint).toBe("https://acct2.blob.core.windows.net");
    expect(new AzureStore({ container: "cc1", env: { ZARR_AZURE_ENDPOINT: "http://127.0.0.1:9/dev/", AZURE_STORAGE_ACCOUNT: "acct2" } }).endpoint).toBe("http://127.0.0.1:9/dev");
    const signed = new AzureStore({ container: "cc1", account: "acct1", env: { AZURE_STORAGE_SAS_TOKEN: `?${SAS}` } });
    expect([signed.signed, signed.readOnly]).toEqual([true, false]);
    const anonymous = new AzureStore({ container: "cc1", account: "acct1", anonymous: true, env: { AZURE_STORAGE_SAS_TOKEN: SAS, AZURE_STORAGE_KEY: "a2V5" } });
    expect([anonymous.auth, anonymous.readOnly]).toEqual(["anonymous", true]);
    // A SAS token in the environment wins over a key there.
    expect(new AzureStore({ container: "cc1", account: "acct1", env: { AZURE_STORAGE_SAS_TOKEN: SAS, AZURE_STORAGE_KEY: "a2V5" } }).auth).toBe("sas");
    expect(new AzureStore({ container: "cc1", env: { AZURE_STORAGE_ACCOUNT: "acct1", AZURE_STORAGE_KEY: "a2V5" } }).auth).toBe("sharedKey");
  });

  it("refuses bad settings with INVALID_ARGUMENT, never quoting a SAS token", () => {
    for (const [options, words] of [
      [{ container: "cc1", env: {} }, "No Azure storage account"],
      [{ container: "cc1", account: "Bad_Name", env: {} }, "Invalid Azure storage account name"],
      [{ container: "Bad", account: "acct1", env: {} }, "Invalid Azure container name"],
      [{ container: "a--b", account: "acct1", env: {} }, "Invalid Azure container name"],
      [{ container: "cc1", account: "acct1", sasToken: "sv=1&se=2", env: {} }, "not a SAS token"],
      [{ container: "cc1", account: "acct1", sasToken: SAS, anonymous: true, env: {} }, "exclude each other"],
      [{ container: "cc1", endpoint: `http://h/acct?${SAS}`, env: {} }, "no query or credentials"],
      [{ container: "cc1", endpoint: "ftp://h", env: {} }, "must be http: or https:"],
      [{ container: "cc1", account: "acct1", listPageSize: 0, env: {} }, "listPageSize"],
      [{ container: "cc1", account: "acct1", sasToken: SAS, accountKey: "a2V5", env: {} }, "`sasToken` and `accountKey` exclude each other"],
      [{ container: "cc1", endpoint: "http://h/acct", accountKey: "a2V5", env: {} }, "needs the account name"],
      [{ container: "cc1", account: "acct1", accountKey: "not base64!", env: {} }, "not base64"],
      [{ container: "cc1", endpoint: "http://h/acct", env: { AZURE_STORAGE_KEY: "a2V5" } }, "needs the account name"],
      [{ container: "cc1", account: "acct1", prefix: "a/../b", env: {} }, ".."],
    ] as const) {
      let message = "";
      try {
        new AzureStore(options as never);
      } catch (error) {
        message = (error as Error).message;
        expect((error as { code: string }).code).toMatch(/INVALID_ARGUMENT|KEY_INVALID/);
      }
      expect(message, JSON.stringify(options)).toContain(words);
      expect(message).not.toContain("sig=abc");
    }
  });

  it("lets the options override the URL through openStore", async () => {
    const registry = createRegistry([azureStoreEntry]);
    const viaAccount = (await openStore("azure+https://acct1.blob.core.windows.net/cc1/p", { registry, account: "acct2", env: {} })) as AzureStore;
    expect(viaAccount.endpoint).toBe("https://acct2.blob.core.windows.net");
    const anonymous = (await openStore(`azure+https://acct1.blob.core.windows.net/cc1/p?${SAS}`, { registry, anonymous: true, env: {} })) as AzureStore;
    expect(anonymous.signed).toBe(false);
    await expect(openStore("az://cc1/p", { registry, sasToken: 5, account: "acct1" })).rejects.toThrow('Azure store option "sasToken" must be string, not number');
  });
});

describe("suffix ranges", () => {
  it("asks again when the blob changed size between the HEAD and the GET", async () => {
    const sizes = [11, 20, 20];
    const requests: string[] = [];
    const fetch = async (_url: string, init: RequestInit) => {
      const range = new Headers(init.headers).get("range");
      requests.push(`${init.method} ${range ?? ""}`);
      if (init.method === "HEAD") return new Response(null, { headers: { "content-length": String(sizes.shift()) } });
      const start = Number(/bytes=(\d+)-/.exec(range ?? "")?.[1]);
      const total = 20 + (requests.length < 3 ? 5 : 0); // the first GET sees a blob grown to 25 bytes
      const body = new Uint8Array(total - start).fill(7);
      return new Response(body, { status: 206, headers: { "content-range": `bytes ${start}-${total - 1}/${total}`, "content-length": String(body.length) } });
    };
    const store = new AzureStore({ container: "cc1", account: "acct1", env: {}, fetch });
    expect(await store.getRange("k", { suffixLength: 4 })).toEqual(new Uint8Array(4).fill(7));
    expect(requests).toEqual(["HEAD ", "GET bytes=7-", "HEAD ", "GET bytes=16-"]);
  });
});
