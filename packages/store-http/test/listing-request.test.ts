/** fetchListing (retries, caps, coded errors) and the XML text helpers listing stores use. */
import { describe, expect, it } from "vitest";
import { fetchListing, type ListingTransport, xmlElements, xmlFirstText, xmlText } from "../src/index.js";

function transport(answers: (() => Response | Promise<Response>)[], extra: Partial<ListingTransport> = {}) {
  const calls: RequestInit[] = [];
  const t: ListingTransport = {
    fetch: async (_url, init) => {
      calls.push(init);
      const next = answers.shift();
      if (next === undefined) throw new Error("no more answers");
      return next();
    },
    headers: async () => ({ authorization: "Bearer sekrit" }),
    retries: 2,
    timeout: 5000,
    ...extra,
  };
  return { t, calls };
}

async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error("expected a rejection");
}

describe("fetchListing", () => {
  it("retries 503 and network errors, then returns the text of the 200 answer with the headers sent each time", async () => {
    const { t, calls } = transport([
      () => new Response("busy", { status: 503 }),
      () => Promise.reject(new TypeError("fetch failed")),
      () => new Response("<ok/>", { status: 200 }),
    ]);
    expect(await fetchListing(t, "http://x/b?prefix=a", "gs://b/a", undefined)).toBe("<ok/>");
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => (c.headers as Record<string, string>).authorization === "Bearer sekrit")).toBe(true);
  });

  it("fails at once on a 4xx with STORE_FAILED quoting the XML error code, naming the request by its description", async () => {
    const { t, calls } = transport([() => new Response("<Error><Code>ContainerNotFound</Code></Error>", { status: 404 })]);
    const error = await rejection(fetchListing(t, "http://x/c?sig=SECRET", "az://c/p", undefined));
    expect(error.code).toBe("STORE_FAILED");
    expect(error.message).toBe("Listing az://c/p failed: HTTP 404 ContainerNotFound (not retried)");
    expect(calls).toHaveLength(1);
  });

  it("gives up after retries + 1 attempts", async () => {
    const { t, calls } = transport([0, 1, 2].map(() => () => new Response("", { status: 500 })), { retries: 2 });
    const error = await rejection(fetchListing(t, "http://x/", "gs://b/", undefined));
    expect(error.message).toBe("Listing gs://b/ failed after 3 attempts: HTTP 500");
    expect(calls).toHaveLength(3);
  });

  it("cuts an answer longer than maxBytes off with STORE_TOO_LARGE; exactly maxBytes is fine", async () => {
    const { t } = transport([() => new Response("x".repeat(11)), () => new Response("x".repeat(10))], { maxBytes: 10 });
    expect((await rejection(fetchListing(t, "http://x/", "gs://b/", undefined))).code).toBe("STORE_TOO_LARGE");
    expect(await fetchListing(t, "http://x/", "gs://b/", undefined)).toBe("x".repeat(10));
  });

  it("rejects with ABORTED when the signal aborts", async () => {
    const controller = new AbortController();
    const { t } = transport([
      () => {
        controller.abort();
        return Promise.reject(new DOMException("aborted", "AbortError"));
      },
    ]);
    expect((await rejection(fetchListing(t, "http://x/", "gs://b/", controller.signal))).code).toBe("ABORTED");
  });
});

describe("XML text", () => {
  it("finds elements in order, not their longer-named siblings, and unescapes text", () => {
    const xml = "<Blobs><Blob><Name>a&amp;b</Name></Blob><BlobPrefix><Name>p/</Name></BlobPrefix><Blob><Name>&#x263A;&#47;&lt;</Name></Blob></Blobs>";
    expect(xmlElements(xml, "Blob").map((b) => xmlFirstText(b, "Name"))).toEqual(["a&b", "☺/<"]);
    expect(xmlElements(xml, "BlobPrefix")).toHaveLength(1);
    expect(xmlFirstText("<a><NextMarker/></a>", "NextMarker")).toBe("");
    expect(xmlFirstText("<a></a>", "NextMarker")).toBeUndefined();
    expect(xmlText("<![CDATA[a&b]]>")).toBe("a&b");
    expect(xmlText("&unknown;")).toBe("&unknown;");
  });
});
