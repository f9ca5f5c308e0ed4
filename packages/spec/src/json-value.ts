/** The types of JSON values (a module of its own so the JSON reader and writer share them without importing each other). */

/** Any JSON value; integers beyond ±(2^53−1) are `bigint`. */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;
/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * JSON as options take it: like {@link JsonValue}, but arrays may be readonly and an
 * object's properties may be `undefined` (an optional field left unset, as in
 * `{ level: cfg.level }`). Such properties are dropped when the value is stored
 * ({@link jsonFromInput}), so stored metadata is always plain `JsonValue`.
 */
export type JsonInput = null | boolean | number | bigint | string | readonly JsonInput[] | JsonInputObject;
/** A JSON object as options take it: properties may be `undefined` (dropped when stored). */
export interface JsonInputObject {
  readonly [key: string]: JsonInput | undefined;
}
