/** Extension definitions: `{"name", "configuration"}` objects and the v3.1 short-hand. */
import type { JsonObject } from "./json.js";

/**
 * A normalised extension definition (codec, data type, chunk grid, chunk key encoding,
 * storage transformer). The v3.1 short-hand `"bytes"` is normalised to
 * `{name: "bytes", configuration: {}}`.
 */
export interface ExtensionObject {
  name: string;
  configuration: JsonObject;
  /** Present only when the document said so; `false` lets readers skip the extension. */
  must_understand?: boolean;
}
