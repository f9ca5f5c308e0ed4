import type { IncomingMessage, ServerResponse } from "node:http";
import { ZarrError } from "@zarr/spec";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { S3Store } from "../src/index.js";
import { bytesOf, CREDENTIALS, collect, rejection, startS3, type TestS3 } from "./helpers.js";

let s3: TestS3;
let store: S3Store;
beforeAll(async () => {
  s3 = await startS3(["errs"]);
  store = s3.store({ bucket: "errs", prefix: "z", maxAttempts: 1 });
  await store.set("zarr.json", bytesOf(10));
  await store.set("flaky", bytesOf(10, 1));
  await store.set("slow", bytesOf(10, 2));
});
afterAll(() => s3.close());
beforeEach(() => s3.reset());

/** An S3 error document, as S3 sends it. */
function s3Error(res: ServerResponse, status: number, code: string, message: string): true {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, { "content-type": "application/xml", "content-length": Buffer.byteLength(body) });
  res.end(body);
  return true;
}

const isGetOf = (req: IncomingMessage, key: string) => req.method === "GET" && (req.url ?? "").split("?")[0] === `/errs/z/${key}`;

describe("errors from the server", () => {
  it("a bucket that does not exist: STORE_FAILED naming the bucket, the key and NoSuchBucket", async () => {
    const missing = s3.store({ bucket: "no-such-bucket", prefix: "data.zarr", maxAttempts: 1 });
    const attempts = [
      () => missing.get("zarr.json"),
      () => missing.getRange("zarr.json", { offset: 1, length: 2 }),
      () => missing.set("zarr.json", bytesOf(1)),
      () => missing.delete("zarr.json"),
      () => missing.listDir(""),
      () => collect(missing.list()),
      () => missing.deletePrefix(""),
    ];
    for (const attempt of attempts) {
      const e = await rejection(attempt());
      expect(e).toBeInstanceOf(ZarrError);
      expect(e.code).toBe("STORE_FAILED");
      expect(e.message).toContain("s3://no-such-bucket/data.zarr/");
      expect(e.message).toContain("NoSuchBucket (HTTP 404)");
    }
    const get = await rejection(missing.get("zarr.json"));
    expect(get.message).toContain('key "zarr.json"');
    expect(get.key).toBe("zarr.json");
  });

  it("getSize on a missing bucket fails too, though a HEAD 404 cannot say which is missing", async () => {
    const missing = s3.store({ bucket: "no-such-bucket", maxAttempts: 1 });
    const e = await rejection(missing.getSize("zarr.json"));
    expect(e.code).toBe("STORE_FAILED");
    expect(e.message).toContain('bucket "no-such-bucket" does not exist');
    expect(s3.seen.map((r) => `${r.method} ${r.url.split("?")[0]}`)).toEqual(["HEAD /no-such-bucket/zarr.json", "HEAD /no-such-bucket/"]);
    // On an existing bucket a missing key is just undefined, and the bucket is checked once.
    s3.reset();
    expect(await store.getSize("nope")).toBeUndefined();
    expect(await store.getSize("nope2")).toBeUndefined();
    expect(s3.seen.map((r) => `${r.method} ${r.url.split("?")[0]}`)).toEqual(["HEAD /errs/z/nope", "HEAD /errs/", "HEAD /errs/z/nope2"]);
  });

  it("unknown credentials: STORE_FAILED with InvalidAccessKeyId (HTTP 403)", async () => {
    const bad = s3.store({ bucket: "errs", prefix: "z", credentials: { accessKeyId: "NOBODY", secretAccessKey: "x" }, maxAttempts: 1 });
    const e = await rejection(bad.get("zarr.json"));
    expect(e.code).toBe("STORE_FAILED");
    expect(e.message).toContain("InvalidAccessKeyId (HTTP 403)");
    expect(e.message).toContain("s3://errs/z/zarr.json");
    const head = await rejection(bad.getSize("zarr.json"));
    expect(head.code).toBe("STORE_FAILED");
    expect(head.message).toContain("HTTP 403");
  });

  it("the SDK retries transient errors (503 SlowDown) up to maxAttempts", async () => {
    let failures = 1;
    s3.intercept = (req, res) => isGetOf(req, "flaky") && failures-- > 0 && s3Error(res, 503, "SlowDown", "Please reduce your request rate.");
    const retrying = s3.store({ bucket: "errs", prefix: "z", maxAttempts: 3 });
    expect(await retrying.get("flaky")).toEqual(bytesOf(10, 1));
    expect(s3.seen.filter((r) => r.url.startsWith("/errs/z/flaky"))).toHaveLength(2);

    s3.reset();
    failures = 1;
    s3.intercept = (req, res) => isGetOf(req, "flaky") && failures-- > 0 && s3Error(res, 503, "SlowDown", "Please reduce your request rate.");
    const e = await rejection(store.get("flaky")); // maxAttempts 1
    expect(e.code).toBe("STORE_FAILED");
    expect(e.message).toContain("SlowDown (HTTP 503): Please reduce your request rate.");
    expect(s3.seen).toHaveLength(1);
  });

  it("per-key errors in a DeleteObjects answer become STORE_FAILED naming the keys", async () => {
    await store.set("d/a", bytesOf(1));
    await store.set("d/b", bytesOf(1));
    s3.intercept = (req, res) => {
      if (req.method !== "POST" || !(req.url ?? "").includes("delete")) return false;
      req.resume(); // the request body (the key list) is not needed for this answer
      const body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        "<Error><Key>z/d/b</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error></DeleteResult>";
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/xml", "content-length": Buffer.byteLength(body) });
        res.end(body);
      });
      return true;
    };
    const e = await rejection(store.deletePrefix("d/"));
    expect(e.code).toBe("STORE_FAILED");
    expect(e.message).toContain('1 of 2 keys were not deleted: "z/d/b" (AccessDenied: Access Denied)');
    expect(e.message).toContain("s3://errs/z/d/");
    expect(e.key).toBe("d/b");
    s3.intercept = undefined;
    await s3.store({ bucket: "errs", prefix: "z" }).deletePrefix("d/"); // retries s3rver's delete race
    expect(await collect(store.listPrefix("d/"))).toEqual([]);
  });

  it("403 on reads: STORE_FAILED by default, a missing key with forbiddenAsMissing", async () => {
    // S3 answers 403 for a missing key when the caller may not list the bucket.
    s3.intercept = (req, res) => {
      if (!(req.url ?? "").startsWith("/errs/z/hidden")) return false;
      if (req.method === "HEAD") {
        res.writeHead(403).end();
        return true;
      }
      return s3Error(res, 403, "AccessDenied", "Access Denied");
    };
    const e = await rejection(store.get("hidden"));
    expect(e.code).toBe("STORE_FAILED");
    expect(e.message).toContain("AccessDenied (HTTP 403): Access Denied");
    expect((await rejection(store.getSize("hidden"))).message).toContain("HTTP 403");
    expect((await rejection(store.getRange("hidden", { offset: 1, length: 1 }))).code).toBe("STORE_FAILED");

    const lenient = s3.store({ bucket: "errs", prefix: "z", forbiddenAsMissing: true, maxAttempts: 1 });
    expect(lenient.forbiddenAsMissing).toBe(true);
    expect(await lenient.get("hidden")).toBeUndefined();
    expect(await lenient.getSize("hidden")).toBeUndefined();
    expect(await lenient.getRange("hidden", { suffixLength: 3 })).toBeUndefined();
    expect(await lenient.get("zarr.json")).toEqual(bytesOf(10)); // other keys read as usual
    // Writes are not reads: a 403 there still fails.
    s3.intercept = (req, res) => req.method === "PUT" && s3Error(res, 403, "AccessDenied", "Access Denied");
    expect((await rejection(lenient.set("hidden", bytesOf(1)))).code).toBe("STORE_FAILED");
  });

  it("a server that ignores Range still yields exactly the requested bytes", async () => {
    s3.intercept = (req) => {
      delete req.headers.range; // s3rver now answers 200 with the whole object
      return false;
    };
    const whole = bytesOf(10);
    expect(await store.getRange("zarr.json", { offset: 2, length: 3 })).toEqual(whole.slice(2, 5));
    expect(await store.getRange("zarr.json", { suffixLength: 4 })).toEqual(whole.slice(6));
    expect(await store.getRange("zarr.json", { offset: 8 })).toEqual(whole.slice(8));
    expect(await store.getRange("zarr.json", { offset: 20 })).toEqual(new Uint8Array(0));
    expect(s3.seen).toHaveLength(4);
  });
});

describe("abort", () => {
  it("an already aborted signal rejects with ABORTED before any request", async () => {
    const signal = AbortSignal.abort();
    for (const attempt of [
      () => store.get("zarr.json", { signal }),
      () => store.getRange("zarr.json", { offset: 1 }, { signal }),
      () => store.getSize("zarr.json", { signal }),
      () => store.set("x", bytesOf(1), { signal }),
      () => store.delete("x", { signal }),
      () => store.deletePrefix("", { signal }),
      () => store.listDir("", { signal }),
      () => collect(store.list({ signal })),
    ]) {
      expect((await rejection(attempt())).code).toBe("ABORTED");
    }
    expect(s3.seen).toHaveLength(0);
  });

  it("aborting a request in flight rejects with ABORTED at once", async () => {
    const held: ServerResponse[] = [];
    s3.intercept = (req, res) => {
      if (!isGetOf(req, "slow") && !(req.method === "GET" && (req.url ?? "").includes("list-type=2"))) return false;
      held.push(res); // never answered until the test ends
      return true;
    };
    for (const run of [
      (signal: AbortSignal) => store.get("slow", { signal }),
      (signal: AbortSignal) => store.getRange("slow", { offset: 1, length: 2 }, { signal }),
      (signal: AbortSignal) => store.listDir("", { signal }),
      (signal: AbortSignal) => collect(store.listPrefix("", { signal })),
    ]) {
      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(new Error("user cancelled")), 50);
      const e = await rejection(run(controller.signal));
      expect(e.code).toBe("ABORTED");
      expect(performance.now() - started).toBeLessThan(2000);
    }
    expect(held).toHaveLength(4);
    for (const res of held) res.destroy();
  });
});

describe("client configuration", () => {
  it("anonymous mode sends unsigned requests and needs no credentials", async () => {
    const anonymous = s3.store({ bucket: "errs", prefix: "z", anonymous: true });
    expect(await anonymous.get("zarr.json")).toEqual(bytesOf(10));
    expect(await anonymous.getSize("zarr.json")).toBe(10);
    expect((await anonymous.listDir("")).keys).toContain("zarr.json");
    expect(s3.seen).toHaveLength(3);
    expect(s3.seen.every((r) => !r.signed)).toBe(true);
    // The signed store's requests do carry a signature.
    s3.reset();
    await store.get("zarr.json");
    expect(s3.seen[0].signed).toBe(true);
  });

  it("custom endpoints use path-style URLs, and the region falls back to the environment, then us-east-1", async () => {
    const saved = { region: process.env.AWS_REGION, config: process.env.AWS_CONFIG_FILE };
    try {
      process.env.AWS_CONFIG_FILE = "/nonexistent/aws-config"; // no profile region from this machine
      delete process.env.AWS_REGION;
      const plain = s3.store({ bucket: "errs", prefix: "z" });
      expect(await plain.client.config.region()).toBe("us-east-1");
      expect(plain.client.config.forcePathStyle).toBe(true);
      expect(await plain.get("zarr.json")).toEqual(bytesOf(10));
      expect(s3.seen.at(-1)?.url.startsWith("/errs/z/zarr.json")).toBe(true);
      process.env.AWS_REGION = "eu-west-3";
      expect(await s3.store({ bucket: "errs" }).client.config.region()).toBe("eu-west-3");
      expect(await s3.store({ bucket: "errs", region: "ap-south-1" }).client.config.region()).toBe("ap-south-1");
      // Checksum headers only where S3 requires them (DeleteObjects), for third-party servers.
      s3.reset();
      await plain.set("sum/x", bytesOf(3));
      await plain.deletePrefix("sum/");
      expect(s3.seen.map((r) => `${r.method} ${r.crc32}`)).toEqual(["PUT false", "GET false", "POST true"]);
    } finally {
      if (saved.region === undefined) delete process.env.AWS_REGION;
      else process.env.AWS_REGION = saved.region;
      if (saved.config === undefined) delete process.env.AWS_CONFIG_FILE;
      else process.env.AWS_CONFIG_FILE = saved.config;
    }
  });

  it("uses a client passed in, leaves it open on close(), and refuses client settings beside it", async () => {
    const client = s3.client();
    const shared = new S3Store({ bucket: "errs", prefix: "z", client });
    expect(shared.client).toBe(client);
    expect(await shared.get("zarr.json")).toEqual(bytesOf(10));
    shared.close();
    expect(await new S3Store({ bucket: "errs", prefix: "z", client }).getSize("zarr.json")).toBe(10);
    expect(() => new S3Store({ bucket: "errs", client, region: "eu-west-1" })).toThrow(/either `client` or the client settings \(region\)/);
    expect(() => new S3Store({ bucket: "errs", client, credentials: CREDENTIALS, anonymous: false })).toThrow(/credentials, anonymous/);
  });
});
