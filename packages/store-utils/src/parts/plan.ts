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
  const parts: PlannedPart[] = [];
  const base = Math.floor(units.length / n);
  const extra = units.length % n;
  let start = 0;
  for (let index = 0; index < n; index++) {
    const end = start + base + (index < extra ? 1 : 0);
    let objects = 0;
    for (let u = start; u < end; u++) objects += units[u].keys.length;
    parts.push({ index, start, end, objects });
    start = end;
  }
  return { parts, units: units.length, fingerprint: hashText(units.map((u) => u.keys.join("\n")).join("\n\n")) };
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
