/**
 * The one interface a partitioned job implements (a copy here; a conversion in
 * @zarr/v2-compat, a pyramid in @zarr/geozarr), so planning, markers, `--init` and
 * `--finalize` live once, here, and this package depends on neither of those.
 */
import type { JsonValue, Store } from "@zarr/spec";

/** Options every unit of work gets. */
export interface UnitRunOptions {
  /** Skip the unit when its objects are already in the target and verified (each job says how). */
  resume: boolean;
  signal?: AbortSignal;
}

/** What running a unit did. */
export interface UnitOutcome {
  /** True when the unit's objects were already there and verified (`resume`). */
  skipped: boolean;
  /** Bytes written (0 when skipped or when the job does not count them). */
  bytes: number;
}

/**
 * One piece of work that writes its own objects and no others: a copied key, a converted
 * chunk, a pyramid chunk (a whole shard for sharded levels). Units are the grain of a
 * plan; `planParts` refuses a job whose units share an object.
 */
export interface WorkUnit {
  /** The target keys this unit writes (each object whole). */
  readonly keys: readonly string[];
  /**
   * The box of the job's own coordinate space this unit's objects depend on and cover,
   * `[start, stop)` per dimension (a pyramid chunk: the level-0 pixels it reduces). Jobs
   * that give it can be planned by explicit regions (`planParts(job, n, { regions })`).
   */
  readonly footprint?: readonly (readonly [number, number])[];
  /** How the unit is named in messages (default: its first key). */
  readonly label?: string;
  /** Does the work. Running it again writes the same bytes. */
  run(options: UnitRunOptions): Promise<UnitOutcome>;
}

/** A job made ready to run: its units in a stable order (every process must list the same). */
export interface PreparedJob {
  readonly units: readonly WorkUnit[];
}

/**
 * A job that splits into parts. `prepare` writes every object that is not a unit's
 * (metadata documents, consolidated metadata, coordinate arrays: the "setup") into the
 * store it is given, and returns units that write through that same store. The runner
 * gives a capture of the target: setup writes stay in memory (parts never write them;
 * `initJob` and `finalizeJob` write them once), unit writes go through to the target, and
 * reads see the setup first, so arrays opened on setup documents work before the target
 * holds them.
 */
export interface PartitionedJob {
  /** `"copy"`, `"convert"`, `"pyramid"`: for markers and messages. */
  readonly kind: string;
  /** The store the job writes, where `.zarr-jobs/` markers go. */
  readonly target: Store;
  /**
   * What identifies the job (sources, paths, options) as JSON: every process of one job
   * must describe it the same way. Hashed into the job id that names its markers.
   */
  describe(): JsonValue;
  /** Writes the setup objects into `store` and lists the units, which write through `store` too. */
  prepare(store: Store, signal?: AbortSignal): Promise<PreparedJob>;
}
