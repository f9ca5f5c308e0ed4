/** Planning a partitioned job: which units each of `n` parts runs, and the plan's fingerprint. */
import { type JsonValue, ZarrError } from "@zarr/spec";
import type { WorkUnit } from "./job.js";

/** One part of a plan: units `[start, end)` of the job's unit list. */
export interface PlannedPart {
  index: number;
  start: number;
  end: number;
  /** How many target objects the part writes. */
  objects: number;
}

/** What `planParts` returns. */
export interface PartPlan {
  parts: PlannedPart[];
  /** Units in the whole job. */
  units: number;
  /**
   * A hash of every unit's keys, in order: parts that listed different work (the source
   * changed between their listings) have different fingerprints, and `finalizeJob` refuses
   * to combine them.
   */
  fingerprint: string;
}

/** A box, `[start, stop)` per dimension, in a job's own coordinate space (see `WorkUnit.footprint`). */
export type Region = readonly (readonly [number, number])[];

/** A region as people read it: `[0:512, 1024:2048]`. */
export function formatRegion(region: Region): string {
  return `[${region.map(([a, b]) => `${a}:${b}`).join(", ")}]`;
}

/** Checks a part count: a positive safe integer. */
export function checkPartCount(n: number): void {
  if (!Number.isSafeInteger(n) || n < 1) throw new ZarrError("INVALID_ARGUMENT", `The number of parts must be a positive integer, got ${String(n)}`);
}

/** Checks a part index against a part count: `0 ≤ i < n`. */
export function checkPartIndex(i: number, n: number): void {
  checkPartCount(n);
  if (!Number.isSafeInteger(i) || i < 0 || i >= n) {
    throw new ZarrError("INVALID_ARGUMENT", `Part index ${String(i)} is out of range: parts are numbered 0 to ${n - 1}`);
  }
}

/**
 * Splits `units` into `n` contiguous runs of nearly equal length (the first `units % n`
 * parts get one more), after checking that no two units write the same object: the
 * overlap is named in an `INVALID_ARGUMENT` error. More parts than units leave some empty.
 */
export function splitUnits(units: readonly WorkUnit[], n: number): PartPlan {
  checkPartCount(n);
  checkDisjoint(units);
  const parts: PlannedPart[] = [];
  const base = Math.floor(units.length / n);
  const extra = units.length % n;
  let start = 0;
  for (let index = 0; index < n; index++) {
    const end = start + base + (index < extra ? 1 : 0);
    parts.push({ index, start, end, objects: objectsIn(units, start, end) });
    start = end;
  }
  return { parts, units: units.length, fingerprint: hashText(units.map((u) => u.keys.join("\n")).join("\n\n")) };
}

function objectsIn(units: readonly WorkUnit[], start: number, end: number): number {
  let objects = 0;
  for (let u = start; u < end; u++) objects += units[u].keys.length;
  return objects;
}

function labelOf(unit: WorkUnit): string {
  return unit.label ?? `"${unit.keys[0] ?? "(no object)"}"`;
}

/**
 * Plans one part per region: each unit goes to the one region its footprint meets, and
 * the units are reordered so that part `i` is a contiguous run (`ordered` is the order
 * the parts run them in). A unit met by two regions would be written by two parts: a
 * read-modify-write race on one chunk, where one part's update is lost. It is refused
 * with `INVALID_ARGUMENT` naming both regions and the chunk, as is a unit no region
 * meets (the result would differ from a run in one piece).
 */
export function splitByRegions(units: readonly WorkUnit[], regions: readonly Region[]): { plan: PartPlan; ordered: WorkUnit[] } {
  checkPartCount(regions.length);
  checkDisjoint(units);
  const dims = regions[0].length;
  regions.forEach((region, r) => {
    if (region.length !== dims || region.some(([a, b]) => !Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a < 0 || b <= a)) {
      throw new ZarrError("INVALID_ARGUMENT", `Region ${r} ${formatRegion(region)} is not a box of ${dims} non-empty [start, stop) ranges`);
    }
  });
  const byRegion: WorkUnit[][] = regions.map(() => []);
  for (const unit of units) {
    const box = unit.footprint;
    if (box === undefined) throw new ZarrError("INVALID_ARGUMENT", `The job cannot be planned by regions: unit ${labelOf(unit)} has no footprint`);
    if (box.length !== dims) {
      throw new ZarrError("INVALID_ARGUMENT", `The regions have ${dims} dimensions, the job's units ${box.length} (unit ${labelOf(unit)} covers ${formatRegion(box)})`);
    }
    let owner = -1;
    for (let r = 0; r < regions.length; r++) {
      if (!regions[r].every(([a, b], d) => a < box[d][1] && box[d][0] < b)) continue;
      if (owner >= 0) {
        throw new ZarrError(
          "INVALID_ARGUMENT",
          `Regions ${owner} ${formatRegion(regions[owner])} and ${r} ${formatRegion(regions[r])} overlap in chunk ${labelOf(unit)}, which covers ${formatRegion(box)}: two parts would both write it and one part's update would be lost; align the regions to that chunk's edges`,
          { key: unit.keys[0] },
        );
      }
      owner = r;
    }
    if (owner < 0) {
      throw new ZarrError(
        "INVALID_ARGUMENT",
        `No region covers chunk ${labelOf(unit)} (${formatRegion(box)}): the regions must cover the whole job, or the result would differ from a run in one piece`,
        { key: unit.keys[0] },
      );
    }
    byRegion[owner].push(unit);
  }
  const ordered = byRegion.flat();
  const parts: PlannedPart[] = [];
  let start = 0;
  byRegion.forEach((mine, index) => {
    parts.push({ index, start, end: start + mine.length, objects: objectsIn(ordered, start, start + mine.length) });
    start += mine.length;
  });
  const text = `${regions.map(formatRegion).join(";")}\n${parts.map((p) => p.end).join(",")}\n${ordered.map((u) => u.keys.join("\n")).join("\n\n")}`;
  return { plan: { parts, units: ordered.length, fingerprint: hashText(text) }, ordered };
}

/** Refuses units that share an object, naming both and the key. */
function checkDisjoint(units: readonly WorkUnit[]): void {
  const owner = new Map<string, number>();
  units.forEach((unit, u) => {
    for (const key of unit.keys) {
      const other = owner.get(key);
      if (other !== undefined && other !== u) {
        throw new ZarrError("INVALID_ARGUMENT", `Units ${other} and ${u} of the job both write "${key}": parts must not share an object`, { key });
      }
      owner.set(key, u);
    }
  });
}

/** A job id from its description: 16 hex digits of a hash of the canonical JSON. */
export function jobId(description: JsonValue): string {
  return hashText(canonicalJson(description));
}

/** JSON with object keys sorted, so equal descriptions give equal text. */
function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, JsonValue>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * 64 bits of FNV-1a (two 32-bit lanes with different offsets) over the UTF-16 code units:
 * enough to tell plans and jobs apart, not a defence against forgery.
 */
function hashText(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
