/**
 * Which metadata documents keep their attributes unparsed until used (see
 * unparsed-attributes.ts). A module of its own: readers check the size up front, and
 * load the rest only for a document that reaches it (bundle size).
 */

/**
 * Metadata documents of at least this many bytes (8 MiB) keep their attributes as
 * unparsed text until they are used; smaller ones are parsed whole, as always. Below it
 * parsing costs little (a few tens of MiB at most), and most documents are a few KiB.
 */
export const UNPARSED_ATTRIBUTES_MIN_BYTES = 8 * 1024 * 1024;

/**
 * The threshold readers apply (internal): {@link UNPARSED_ATTRIBUTES_MIN_BYTES}, lowered
 * by tests so that small documents take the unparsed path too.
 *
 * @internal
 */
export const unparsedAttributesThreshold = { bytes: UNPARSED_ATTRIBUTES_MIN_BYTES };
