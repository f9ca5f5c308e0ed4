/** Partitioned, resumable jobs: the job interface, planning, running, init and finalize. */

export { type CopyJobOptions, copyJob } from "./copy-job.js";
export type { PartitionedJob, PreparedJob, UnitOutcome, UnitRunOptions, WorkUnit } from "./job.js";
export { JOBS_PREFIX, markerKey, type PartMarker } from "./markers.js";
export type { PartPlan, PlannedPart, Region } from "./plan.js";
export { finalizeJob, initJob, type PartResult, type PlanOptions, planParts, type RunPartOptions, runPart, type SetupResult } from "./run.js";
