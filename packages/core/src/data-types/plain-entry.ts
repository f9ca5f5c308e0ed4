/** The registry entry of a built-in data type without configuration. */
import type { DataType, DataTypeEntry, JsonObject, JsonPath } from "@zarr/spec";
import { CORE_PACKAGE, expectNoConfiguration } from "./shared.js";

/** An entry for a data type without configuration; one cached instance per name it is read under. */
export function plainEntry(name: string, make: (name: string) => DataType, aliases?: readonly string[]): DataTypeEntry {
  const instances = new Map<string, DataType>();
  return {
    type: "data_type",
    name,
    ...(aliases === undefined ? {} : { aliases }),
    package: CORE_PACKAGE,
    fromConfig(asName: string, configuration: JsonObject, path: JsonPath): DataType {
      expectNoConfiguration(asName, configuration, path);
      let t = instances.get(asName);
      if (t === undefined) {
        t = make(asName);
        instances.set(asName, t);
      }
      return t;
    },
  };
}
