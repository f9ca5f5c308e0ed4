/**
 * Implicit groups: paths without a `zarr.json` that exist because keys lie below them.
 * Their test (keys-under.ts `hasKeysUnder`) loads only when one is looked for (bundle size).
 */
import type { GroupMetadata } from "@zarr/spec";

/** The metadata of a group without a `zarr.json` (an implicit group). */
export const IMPLICIT_GROUP: GroupMetadata = { zarr_format: 3, node_type: "group", attributes: {} };
