/**
 * The description of one HTTP request of the store, in a module of its own: transport.ts
 * (which sends it) and request-failure.ts (which transport.ts loads on a failure) both use
 * it, and neither may import the other's types (an import cycle).
 */

/** One request: its method, key and URL, and the headers that depend on it. */
export interface RequestSpec {
  method: "GET" | "HEAD" | "PUT" | "DELETE";
  key: string;
  url: string;
  range?: string;
  /** An ETag for `If-Match`: the server answers 412 unless the value still has it. */
  ifMatch?: string;
  /** `If-None-Match: *` on a PUT: the server answers 412 when the key has a value already. */
  ifNoneMatchAny?: boolean;
  body?: Uint8Array<ArrayBuffer>;
  signal: AbortSignal | undefined;
}
