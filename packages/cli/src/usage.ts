/** Usage texts and usage errors (exit status 2). */
import { parseArgs } from "node:util";
import { PARTS_USAGE } from "./parts-usage.js";
import { LIMIT_OPTIONS, type LimitOptionValues } from "./read-limits.js";
import { UsageError } from "./usage-error.js";

export { UsageError };

/**
 * The integer an option gives, from `min` to `max`; `fallback` when it is absent. Anything
 * else (a sign, a fraction, text) is a {@link UsageError} naming the option.
 */
export function integerOption(command: string, name: string, text: string | undefined, min: number, max: number, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`, command);
  }
  return n;
}

/** One-paragraph usage of every command. */
export const USAGE: Record<string, string> = {
  info: `Usage: zarr info STORE [PATH] [--json] [--stored]
  Describe the array or group at PATH (default: the root): shape, data type, chunk grid,
  key encoding, fill value, codecs, dimension names, attributes, stored size and chunks;
  for groups the children and whether metadata is consolidated.
  --json     print one JSON document
  --stored   on a store that cannot list keys (plain HTTP), count an array's stored
             chunks and bytes by asking for each chunk key (HEAD or a one-byte range
             request, 16 at a time, with progress on a terminal)`,
  tree: `Usage: zarr tree STORE [PATH] [--json]
  Print the hierarchy below PATH (default: the root) as a tree; arrays with shape and data type.
  --json   print it as one nested JSON document (name, path, node_type, shape, data_type, children)`,
  get: `Usage: zarr get STORE PATH [--select SEL] [--format json|npy] [-o FILE] [-j N]
  Read the values of the array at PATH.
  --select SEL     NumPy-style selection, e.g. "0:10, ::2, 5" or "[1, 4], ...", or by
                   dimension name, e.g. "time=0:10, lat=5" (dimensions not named: whole)
  --format FMT     json: {"shape", "data_type", "values"}; npy: a NumPy .npy file.
                   Default: json on standard output and for -o FILE.json; npy for any
                   other -o FILE (FILE.npy, no extension, /dev/null)
  -o, --output F   write to file F instead of standard output (removed if the read fails
                   or Ctrl-C stops it; a second Ctrl-C exits at once)
  -j, --workers N  worker threads for decoding large compressed chunks (default: one per
                   core; 0: none). Threads start only for chunks worth it (64 KiB or more)
  A whole array larger than 64 MiB written as .npy is read and written in slabs of whole
  chunk rows (~32 MiB, two at a time), so it needs no memory the size of the array.`,
  put: `Usage: zarr put STORE PATH --from FILE.npy [options]
  Create the array at PATH (and missing parent groups) from a NumPy .npy file. PATH is
  inside STORE ("/data/x" is STORE/data/x, as in zarr-python).
  --from FILE            the .npy file to store (required)
  --chunks SHAPE         chunk shape, e.g. 10,10; or JSON with edge lists per dimension
                         for a rectilinear grid, e.g. '[[2,3,5], 4]'
  --codecs JSON          codec chain, e.g. '[{"name":"bytes","configuration":{"endian":"little"}}]'
  --fill-value V         JSON (0, "NaN", "0x7fc00001", [1, 2], "text") or NaN/Infinity/-Infinity/NaT
  --dimension-names N    comma-separated names, e.g. x,y (or a JSON list with nulls)
  --attrs JSON           attributes (a JSON object)
  --data-type T          Zarr data type name or JSON, overriding the one mapped from the .npy dtype
  --overwrite            replace an existing node (or an interrupted put) at PATH
  --resume               finish an interrupted put (same input and options): keeps the chunks
                         already written, then writes the metadata (written last by every put)
  --zarr-format 2|3      write Zarr v2 (.zarray; the .npy dtype as it is) instead of v3 (default 3)
  --compressor JSON      v2: numcodecs compressor, e.g. '{"id":"zstd","level":3}', or null
                         (default: Blosc lz4, as zarr-python)
  --filters JSON         v2: numcodecs filters, e.g. '[{"id":"delta","dtype":"<i4"}]'
  --order C|F            v2: memory order of each chunk (default C)
  --dimension-separator S  v2: "." (default, keys 0.1) or "/" (keys 0/1)
  -j, --workers N        worker pool handed to the write engine (default: one thread per core;
                         0: none); threads start only when the engine gives them chunks`,
  convert: `Usage: zarr convert SRC DST [--path P] [--variable-length-strings] [--strict]
                    [--part i/n | --parts n | --init | --finalize] [--resume] [-j N]
       zarr convert STORE --in-place [--path P] [--strict]
       zarr convert SRC DST --zarr-format 3-draft [--path P] [--strict]
  Convert the Zarr v2 (or early-draft v3) node at P (default: the root) and everything below
  it to Zarr v3. Chunks stay as they are where v3 can describe them (metadata only in place;
  copied byte for byte into DST); early-draft chunks move to v3 keys. A progress line is
  drawn on standard error when it is a terminal; Ctrl-C stops the conversion.
  --in-place                  convert STORE itself (v3 documents replace the old ones)
  --path P                    the node to convert; with DST, also where it goes in DST
  --variable-length-strings   rewrite fixed-length Unicode (<U) as variable-length strings
  --strict                    fail on an array that cannot be read (a pickle object array, a
                              structured type mixing byte orders, an unknown codec) instead of
                              skipping it with a warning on standard error
  --zarr-format 3-draft       write DST in the early Zarr v3 draft layout (meta/root/…,
                              data/root/…) that GDAL 3.6 and zarr-python 2.13 read, from any
                              SRC (v3, v2 or draft): every chunk rewritten with gzip level 5;
                              arrays of variable-size values are refused; an array at the
                              root of SRC is written as /data
  -j, --concurrency N         with a part: chunks converted at once (default 8)
${PARTS_USAGE}
  A part converts its own chunks (copied, or rewritten for --variable-length-strings) and
  never a document; --in-place and --zarr-format 3-draft run in one process only.`,
  cp: `Usage: zarr cp SRC DST [--resume] [--concurrency N] [--part i/n | --parts n | --init | --finalize]
  Copy every key of the store SRC into DST, byte for byte (a whole hierarchy, any codecs,
  Zarr v2 or v3). SRC and DST are directories or URLs (file:, s3://bucket/prefix, a zip
  archive as SRC); SRC must be listable (not plain HTTP). When DST is a local path ending
  in .zip, a zip archive is written (entries stored, readable by Python's zipfile).
  A progress bar is drawn on standard error when it is a terminal. Ctrl-C stops the copy
  after the writes in flight: no object in DST is ever partially written.
  --resume           skip keys DST already holds with the same size
  -j, --concurrency N keys copied at once (default 8)
${PARTS_USAGE}`,
  consolidate: `Usage: zarr consolidate STORE [PATH]
  Write the metadata of every node below the group at PATH (default: the root) into one
  document, as zarr-python's consolidate_metadata does: consolidated_metadata in the group's
  zarr.json (Zarr v3), or .zmetadata beside its .zgroup (Zarr v2, read by zarr-python's
  open_consolidated). Readers then open the whole hierarchy with one request, and zarr tree
  works over plain HTTP, which cannot list. Run it again after changing the hierarchy.`,
  serve: `Usage: zarr serve STORE [--port N] [--host H] [--allow-origin O] [-q]
  Serve STORE read-only over HTTP for local viewing: GET and HEAD of keys with byte ranges
  (206 Partial Content), CORS for browsers on other origins. No listings, no writes.
  -p, --port N        port (default 8000; 0 picks a free one, printed at start)
  --host H            address to listen on (default 127.0.0.1, this machine only)
  --allow-origin O    Access-Control-Allow-Origin (default *)
  -q, --quiet         no request log on standard error
  Stops on Ctrl-C (SIGINT) or SIGTERM.`,
  geozarr: `Usage: zarr geozarr validate|info|pyramid|migrate|from-geotiff ...
  GeoZarr conventions (zarr_conventions, proj:, spatial:, multiscales).
  zarr geozarr validate STORE [PATH] [--json] [--strict] [--min-severity error|warning|info]
                       [--tolerance T] [--rules]
      check the whole hierarchy, each node by the rules of the convention version it
      declares (v1 and undeclared: the mini-spec's; v0.1: v0.1's); each finding has a
      severity, rule id, node path, JSON pointer, how to fix it and the mini-spec section,
      then a summary line with the counts. --json prints {valid, counts, summary, findings}.
      Exit status 0 when valid, 1 when there is an error; --strict makes warnings errors.
      --rules lists the rules.
  zarr geozarr info STORE [PATH] [--json]
      the Multiscale Datasets (CRS, levels, shapes, resolutions, variables) and Datasets
  zarr geozarr pyramid SRC DST [--factors 2,3] [--resampling average|VAR=METHOD,...]
                       [--min-size 256] [--chunks R,C] [--shards R,C] [--nodata N|fill_value]
                       [--variables a,b] [--src-path P] [--dst-path P] [--zarr-format 2|3]
                       [--gdal-crs|--no-gdal-crs] [--conventions v1|v0.1] [--overwrite] [-j N]
                       [--workers N] [--part i/n | --parts n | --init | --finalize] [--resume]
                       [--regions R0:R1,C0:C1;...]
      build a Multiscale Dataset from the Dataset at SRC (methods: average, nearest, mode,
      min, max, sum, or), streaming chunk by chunk; a progress bar on a terminal. Every
      level is reduced from the full-resolution blocks (exact with NaN/nodata).
      --zarr-format 2 writes Zarr v2 with _ARRAY_DIMENSIONS and GDAL's _CRS (what GDAL 3.6
      reads; no --shards); --gdal-crs adds _CRS to Zarr v3, --no-gdal-crs leaves it out;
      --conventions v0.1 declares the conventions' v0.1 tags instead of the mini-spec's v1;
      -j N chunks of the levels built at once (default 4); --workers N threads decode and
      encode chunks (default: one per core; 0: none).
      In parts (--part i/n, --parts n with JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX,
      --init, --finalize, --resume as for zarr cp): every level is reduced from level 0, so
      all levels form one job; a part is a band of the map with every level's chunks over
      it. --regions gives each part its own box of level-0 pixels instead (rows,cols per
      part, ";" between parts, the same for every part and --finalize); regions that would
      share a level's chunk are refused, naming both and the chunk. No --overwrite in parts.
  zarr geozarr migrate STORE [PATH] [--dry-run] [--remove-legacy] [--conventions v1|v0.1] [--json]
      rewrite older declarations (v0.1, branch heads, geo-proj 0.1.0 and its geo
      dictionary) in the mini-spec's v1 form (--conventions v0.1: in v0.1's), and convert
      GeoZarr 0.4 tile-matrix-set and ndpyramid multiscales, and GDAL/CF/STAC
      georeferencing, to the conventions; --dry-run reports without writing
  zarr geozarr from-geotiff IN.tif DST [PATH] [--chunks R,C] [--pyramid] [--factors 2]
                       [--resampling average] [--min-size 256] [--zarr-format 2|3] [--crs EPSG:N]
                       [--gdal-crs|--no-gdal-crs] [--conventions v1|v0.1] [--overwrite] [--json]
                       [--workers N]
      import a GeoTIFF as a GeoZarr Dataset (one array per band, y/x coordinates, proj:code,
      spatial:transform, GDAL nodata as fill value), read window by window; --pyramid makes
      a Multiscale Dataset (level 0 the full resolution); --crs for a user-defined CRS.
      --zarr-format 2 writes Zarr v2 with GDAL's _CRS on every band (GDAL 3.6 reads it);
      --conventions and --workers as for pyramid`,
  icechunk: `Usage: zarr icechunk log REPO [--json]
       zarr icechunk diff REPO [--from VERSION] [--to VERSION] [--json]
       zarr icechunk tx REPO [VERSION] [--json]
  log: the history of an Icechunk repository's branch (default main), tag or snapshot,
  newest first: snapshot id, commit time (UTC) and message, one commit a line.
  diff: what changed from --from (default: the parent of --to) to --to (default: REPO's
  version): new, deleted and updated groups and arrays by path, moved nodes, and the chunk
  coordinates written or deleted per array, as Icechunk's Repository.diff reports them.
  --from must be an ancestor of --to. Transaction logs of expired ancestors (spec 2.1) are
  folded in; ones storage no longer holds are listed as missing.
  tx: one commit's transaction log by node id (default: REPO's version), as Icechunk's
  inspect_transaction_log shows it, with the merged and missing logs of expired ancestors.
  VERSION is branch:NAME, tag:NAME, snapshot:ID, or a bare snapshot id or branch name.
  REPO is icechunk+<store URL> (icechunk+file:///data/repo, icechunk+s3://bucket/repo) with
  ?branch=NAME, ?tag=NAME or ?snapshot=ID, or the repository's directory or store URL.
  --json   log: one JSON array of {id, parent, time, message}; diff and tx: one JSON object
           with Icechunk's field names (new_groups, updated_chunks, synthetic_composite, …)
  Every command reads a repository as STORE: icechunk+<store URL>[?branch=|tag=|snapshot=],
  with ?container=URL_PREFIX (repeatable) allowing its virtual chunks from that container
  and ?checksums=ignore reading them without checking their recorded ETag or time.`,
  refs: `Usage: zarr refs from-geotiff FILE.tif OUT.json [--target-url URL] [--name NAME] [--image N]
                       [--crs EPSG:N] [--no-gdal-crs] [--conventions v1|v0.1] [--overwrite] [--json]
  Write a kerchunk reference set (JSON version 1, Zarr v2) over the tiles of a GeoTIFF, so it
  reads as Zarr without copying a byte: zarr get reference+file:///abs/OUT.json data (fsspec's
  ReferenceFileSystem reads it too). One array (data) whose chunks are the TIFF's tiles:
  [y, x] for one band, [y, x, band] pixel-interleaved, [band, y, x] band-separate; inline y/x
  coordinates; proj:code and spatial:transform on the group; the GDAL nodata value as fill value.
  Referenced: uncompressed, DEFLATE (zlib), ZSTD and LZW (imagecodecs_lzw: @zarr/codec-lzw, or
  zarr-python with imagecodecs) tiles without predictor, and strips when they divide the height.
  JPEG, WebP, LERC, ... and predictors 2 and 3 have no Zarr codec: refused (rewrite with
  gdal_translate -co TILED=YES -co COMPRESS=DEFLATE -co PREDICTOR=1).
  --target-url URL   the URL the references point to (https://…, s3://…); default the TIFF's
                     absolute file:// URL
  --name NAME        the data array's name (default data)
  --image N          which image (IFD) of the file (default 0, the full resolution)
  --crs EPSG:N       the CRS when the GeoKeys name none (a user-defined CRS)
  --no-gdal-crs      leave out GDAL's _CRS attribute on the data array
  --conventions      the GeoZarr declarations to write (v1, default, or v0.1)
  --overwrite        replace OUT.json; OUT.json "-" prints the references on standard output
  --json             print what was written as JSON`,
};

/** Every command's usage ends with its read limits and their defaults (the general usage explains them). */
const LIMITS_LINE = `
  Limits (every command; ZARR_* variables too, see zarr --help): --max-chunk-bytes N (512MiB),
  --max-value-bytes N (1GiB), --timeout T (30s without a byte), --max-ratio R (1000)`;
for (const command of Object.keys(USAGE)) USAGE[command] += LIMITS_LINE;

/** The general usage. */
export const GENERAL_USAGE = `Usage: zarr <command> [arguments]

Commands:
  info STORE [PATH] [--json]          describe an array or group
  tree STORE [PATH] [--json]          print the hierarchy
  get STORE PATH [--select S] [--format json|npy] [-o FILE]
                                      read array values
  put STORE PATH --from FILE.npy [...] create an array from a .npy file
  convert SRC DST | STORE --in-place  convert Zarr v2 (or the early v3 draft) to Zarr v3
  cp SRC DST [--resume] [--concurrency N]
                                      copy a hierarchy between stores (or into a .zip)
  geozarr validate|info|pyramid|migrate|from-geotiff ...
                                      GeoZarr: validate, describe, build pyramids, migrate, import GeoTIFF
  serve STORE [--port N]              serve a store over HTTP (Range, CORS) on 127.0.0.1
  consolidate STORE [PATH]            write consolidated metadata (v3 zarr.json, v2 .zmetadata)
  icechunk log REPO [--json]          the history of an Icechunk repository's branch, tag or snapshot
  icechunk diff|tx REPO [...]         changes between two snapshots; one commit's transaction log
  refs from-geotiff FILE.tif OUT.json  a GeoTIFF's tiles as a kerchunk reference set (read it as
                                     reference+file:///abs/OUT.json)

STORE is where the hierarchy lives:
  data.zarr                          a local directory (or file:///abs/data.zarr)
  https://example.com/data.zarr      HTTP(S) (cannot list: tree needs consolidated metadata,
                                     see zarr consolidate)
  s3://bucket/prefix/data.zarr       S3 (credentials and region from the AWS environment)
  gs://bucket/prefix/data.zarr       Google Cloud Storage (GCS_HMAC_ACCESS_KEY_ID/GCS_HMAC_SECRET,
                                     GOOGLE_OAUTH_ACCESS_TOKEN or anonymous; ZARR_GCS_ENDPOINT)
  az://container/prefix/data.zarr    Azure Blob Storage (AZURE_STORAGE_ACCOUNT; AZURE_STORAGE_SAS_TOKEN or
                                     AZURE_STORAGE_KEY; also abfss://container@ACCOUNT.dfs.core.windows.net/…)
  data.zarr.zip                      a zip archive (also zip+https://host/data.zarr.zip)
  icechunk+s3://bucket/repo?tag=v1   an Icechunk repository's branch (default main), tag or snapshot
                                     (icechunk+file:///data/repo, icechunk+https://…; see zarr icechunk --help)
http(s) stores: every command takes --header 'Name: value' (repeatable) and reads
ZARR_HTTP_HEADERS ("Name: value" entries on separate lines, as GDAL_HTTP_HEADERS);
HTTPS_PROXY, HTTP_PROXY, ALL_PROXY (http:// or socks5h:// proxies) and NO_PROXY are
honoured; ZARR_HTTP2=1 speaks HTTP/2 with https servers that offer it. Header values are
never printed.

Limits (every command; a flag overrides its environment variable):
  --max-chunk-bytes N   most memory one decoded chunk may take (ZARR_MAX_CHUNK_BYTES;
                        default 512MiB: a larger chunk is rare, and usually a mistake or an attack)
  --max-value-bytes N   largest value read from an http(s), s3, gs or az store: an endless or
                        bloated body stops there (ZARR_MAX_VALUE_BYTES; default 1GiB)
  --timeout T           a request fails when the server sends nothing for T, before answering or
                        inside a body; a slow body that keeps coming is read (ZARR_TIMEOUT;
                        default 30s; 0: none). Over http(s) a stalled request is not retried;
                        s3 applies it to its sockets, gs and az to each attempt as a whole
  --max-ratio R         a chunk of variable-length data (strings) may decode to R times its
                        stored size, and always to 64MiB, as archive tools bound decompression:
                        a bomb stops early (ZARR_MAX_RATIO; default 1000; 0: none)
  Sizes: bytes, or with K/M/G/T (KiB/MiB/GiB/TiB: powers of 1024) or KB/MB/GB/TB (powers of
  1000). Durations: 500ms, 30s, 2m, 1h (a plain number: seconds).
Run "zarr <command> --help" for a command's options.
Exit status: 0 success, 1 error, 2 usage error.`;

/** The options a command accepts: each a string or a flag. */
export type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

/** Parsed option values: strings for string options, booleans for flags. */
export type OptionValues<O extends OptionSpec> = {
  [K in keyof O]?: O[K]["type"] extends "string" ? string : boolean;
} & { help?: boolean; header?: string[] } & LimitOptionValues;

/**
 * Writes string options as `--name=value`, so a value that starts with a dash (a
 * selection such as `-1, ::2`) is taken as the value and not as another option.
 */
function attachValues(args: string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      out.push(...args.slice(i));
      break;
    }
    const name = a.startsWith("--")
      ? a.slice(2)
      : Object.keys(options).find((k) => options[k].short !== undefined && a === `-${options[k].short}`);
    if (name !== undefined && options[name]?.type === "string" && i + 1 < args.length) {
      out.push(`--${name}=${args[++i]}`);
    } else out.push(a);
  }
  return out;
}

/**
 * `parseArgs` with `--help`, positional arguments, and its errors turned into
 * {@link UsageError}s for `command`. `values.help` is true when help was asked for.
 */
export function parseCommandArgs<O extends OptionSpec>(
  command: string,
  args: string[],
  options: O,
): { values: OptionValues<O>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: attachValues(args, { ...LIMIT_OPTIONS, ...options, header: { type: "string" } }),
      // Every command takes --header (repeatable), for the http(s) stores it opens, and the read limits.
      options: { ...LIMIT_OPTIONS, ...options, help: { type: "boolean", short: "h" }, header: { type: "string", multiple: true } },
      allowPositionals: true,
      strict: true,
    });
    return { values: parsed.values as OptionValues<O>, positionals: parsed.positionals };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      throw new UsageError((error as Error).message, command);
    }
    throw error;
  }
}

/** Checks the number of positional arguments. */
export function expectPositionals(command: string, positionals: string[], min: number, max: number): void {
  if (positionals.length < min) throw new UsageError("missing arguments", command);
  if (positionals.length > max) {
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[max])}`, command);
  }
}
