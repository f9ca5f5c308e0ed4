/**
 * @zarr/codec-sharding: the Zarr v3 `sharding_indexed` codec, with partial reads
 * (cached shard indexes, coalesced byte ranges) and partial writes.
 */
export { createShardingEntry, SHARDING_CODEC_NAME, shardingIndexed } from "./codec.js";
export { DEFAULT_INDEX_CODECS } from "./configuration.js";
export { DEFAULT_SHARDING_OPTIONS, type ResolvedShardingOptions, type ShardingOptions } from "./options.js";
