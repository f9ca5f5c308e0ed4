/**
 * CF time coordinates: numbers in `<unit> since <reference date>` in a calendar, decoded
 * to JS `Date`s (proleptic Gregorian instants) or to {@link CFDateTime} parts for
 * calendars whose dates a `Date` cannot name, and encoded back. Arithmetic is in whole
 * days plus microseconds within the day, so dates far from the reference keep
 * microsecond precision (cftime's resolution).
 */
import { ZarrError } from "@zarr/spec";
import { type CFCalendar, type DateInput, type DateParts, dateOfDay, dayNumber, GREGORIAN_START_JDN, normalizeCalendar, UNIX_EPOCH_JDN } from "./calendars.js";

/** A date of a CF calendar: its parts and the calendar they belong to (what cftime returns). */
export interface CFDateTime extends DateParts {
  calendar: CFCalendar;
}

/** Parsed CF time units. */
export interface TimeUnits {
  /** The unit's canonical name (`days`, `hours`, `minutes`, `seconds`, `milliseconds`, `microseconds`). */
  unit: string;
  /** Microseconds per unit. */
  micros: number;
  /** The reference date, in UTC (a time zone in the units string is applied). */
  reference: DateParts;
}

const US_PER_DAY = 86_400_000_000;
const UNITS: [string, number, string[]][] = [
  ["microseconds", 1, ["microseconds", "microsecond", "microsecs", "microsec", "us"]],
  ["milliseconds", 1e3, ["milliseconds", "millisecond", "millisecs", "millisec", "msecs", "msec", "ms"]],
  ["seconds", 1e6, ["seconds", "second", "secs", "sec", "s"]],
  ["minutes", 6e7, ["minutes", "minute", "mins", "min"]],
  ["hours", 3.6e9, ["hours", "hour", "hrs", "hr", "h"]],
  ["days", US_PER_DAY, ["days", "day", "d"]],
];

const REFERENCE =
  /^\s*(-?\d+)-(\d{1,2})-(\d{1,2})(?:[T\s]+(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d+))?)?)?\s*(Z|UTC|GMT|[+-]\d{1,2}(?::?\d{2})?)?\s*$/i;

/** True when a `units` attribute is a CF time unit (`<unit> since <date>`). */
export function isTimeUnits(units: unknown): units is string {
  return typeof units === "string" && / since /i.test(units);
}

/**
 * Parses CF time units such as `"days since 1850-01-01"` or
 * `"hours since 1970-01-01 06:00:00 +01:00"`. Throws `INVALID_ARGUMENT` for anything else.
 *
 * @example
 * ```ts
 * parseTimeUnits("hours since 2000-01-01 12:00").unit; // "hours"
 * ```
 */
export function parseTimeUnits(units: string): TimeUnits {
  const match = /^\s*(\w+)\s+since\s+(.+)$/i.exec(units);
  const fail = (why: string) => new ZarrError("INVALID_ARGUMENT", `Cannot read the time units "${units}": ${why}`);
  if (!match) throw fail('expected "<unit> since <date>"');
  const name = match[1].toLowerCase();
  const unit = UNITS.find(([, , names]) => names.includes(name));
  if (unit === undefined) throw fail(`unknown unit "${match[1]}" (expected days, hours, minutes, seconds, milliseconds or microseconds)`);
  const ref = REFERENCE.exec(match[2]);
  if (!ref) throw fail(`cannot read the reference date "${match[2]}"`);
  const fraction = ref[7] === undefined ? 0 : Math.round(Number(`0.${ref[7]}`) * 1e6);
  let offsetMinutes = 0;
  const zone = ref[8];
  if (zone !== undefined && /^[+-]/.test(zone)) {
    const digits = zone.slice(1).replace(":", "");
    const hours = Number(digits.length <= 2 ? digits : digits.slice(0, -2));
    const minutes = digits.length <= 2 ? 0 : Number(digits.slice(-2));
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (hours * 60 + minutes);
  }
  const reference: DateParts = {
    year: Number(ref[1]),
    month: Number(ref[2]),
    day: Number(ref[3]),
    hour: Number(ref[4] ?? 0),
    minute: Number(ref[5] ?? 0) - offsetMinutes,
    second: Number(ref[6] ?? 0),
    microsecond: fraction,
  };
  return { unit: unit[0], micros: unit[1], reference };
}

/** A point in time in a calendar: a day number and microseconds into that day. */
interface Instant {
  day: number;
  micros: number;
}

function normalize(day: number, micros: number): Instant {
  const carry = Math.floor(micros / US_PER_DAY);
  return { day: day + carry, micros: micros - carry * US_PER_DAY };
}

function instantOf(calendar: CFCalendar, parts: DateParts): Instant {
  const micros = ((parts.hour * 60 + parts.minute) * 60 + parts.second) * 1e6 + parts.microsecond;
  return normalize(dayNumber(calendar, parts.year, parts.month, parts.day), micros);
}

function partsOf(calendar: CFCalendar, instant: Instant): CFDateTime {
  const [year, month, day] = dateOfDay(calendar, instant.day);
  let rest = instant.micros;
  const hour = Math.floor(rest / 3.6e9);
  rest -= hour * 3.6e9;
  const minute = Math.floor(rest / 6e7);
  rest -= minute * 6e7;
  const second = Math.floor(rest / 1e6);
  return { year, month, day, hour, minute, second, microsecond: rest - second * 1e6, calendar };
}

/** The instant `value` units after the reference (rounded to the microsecond). */
function offsetInstant(ref: Instant, value: number, micros: number): Instant {
  const perDay = US_PER_DAY / micros;
  const whole = Math.floor(value / perDay);
  const rest = Math.round((value - whole * perDay) * micros);
  return normalize(ref.day + whole, ref.micros + rest);
}

/** Decoded time values: `Date`s, or date parts when a `Date` would name the wrong day. */
export type DecodedTimes = { kind: "datetime"; data: (Date | null)[] } | { kind: "cftime"; data: (CFDateTime | null)[] };

/**
 * Decodes CF time numbers (NaN: missing, `null`) in `units` and `calendar` (the CF
 * attributes). proleptic_gregorian gives `Date`s; standard/gregorian gives `Date`s when
 * every date is on or after 1582-10-15 (where it agrees with proleptic Gregorian), and
 * date parts otherwise (Julian dates before then, as cftime names them); the other
 * calendars always give date parts. `Date`s keep millisecond precision.
 *
 * @example
 * ```ts
 * decodeTimes([0, 59], "days since 2000-01-01", "360_day").data[1]; // { year: 2000, month: 2, day: 30, ... }
 * ```
 */
export function decodeTimes(values: ArrayLike<number | bigint>, units: string, calendar?: string): DecodedTimes {
  const cal = normalizeCalendar(calendar);
  const parsed = parseTimeUnits(units);
  const ref = instantOf(cal, parsed.reference);
  const instants: (Instant | null)[] = [];
  let allGregorian = cal === "proleptic_gregorian" || cal === "standard";
  for (let i = 0; i < values.length; i++) {
    const v = Number(values[i]);
    if (!Number.isFinite(v)) {
      instants.push(null);
      continue;
    }
    const instant = offsetInstant(ref, v, parsed.micros);
    if (cal === "standard" && instant.day < GREGORIAN_START_JDN) allGregorian = false;
    instants.push(instant);
  }
  if (allGregorian) {
    const data = instants.map((t) => (t === null ? null : new Date((t.day - UNIX_EPOCH_JDN) * 86_400_000 + Math.floor(t.micros / 1000))));
    return { kind: "datetime", data };
  }
  return { kind: "cftime", data: instants.map((t) => (t === null ? null : partsOf(cal, t))) };
}

/** The instant of a `Date` or of date parts in `calendar`. A `Date` names its UTC date. */
function instantOfInput(calendar: CFCalendar, value: Date | DateInput): Instant {
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw new ZarrError("INVALID_ARGUMENT", "Cannot encode an invalid Date");
    if (calendar === "proleptic_gregorian" || calendar === "standard") {
      const day = Math.floor(ms / 86_400_000);
      return { day: UNIX_EPOCH_JDN + day, micros: (ms - day * 86_400_000) * 1000 };
    }
    return instantOf(calendar, {
      year: value.getUTCFullYear(),
      month: value.getUTCMonth() + 1,
      day: value.getUTCDate(),
      hour: value.getUTCHours(),
      minute: value.getUTCMinutes(),
      second: value.getUTCSeconds(),
      microsecond: value.getUTCMilliseconds() * 1000,
    });
  }
  if ("calendar" in value && typeof value.calendar === "string" && normalizeCalendar(value.calendar) !== calendar) {
    throw new ZarrError("INVALID_ARGUMENT", `A date of the ${value.calendar} calendar cannot be encoded in the ${calendar} calendar`);
  }
  return instantOf(calendar, { ...value, hour: value.hour ?? 0, minute: value.minute ?? 0, second: value.second ?? 0, microsecond: value.microsecond ?? 0 });
}

/**
 * Encodes dates (`Date`s, or date parts of `calendar`; `null` → NaN) as numbers of
 * `units` since their reference date: the reverse of {@link decodeTimes}.
 *
 * @example
 * ```ts
 * encodeTimes([{ year: 2000, month: 2, day: 30 }], "days since 2000-01-01", "360_day"); // Float64Array [59]
 * ```
 */
export function encodeTimes(values: readonly (Date | DateInput | null)[], units: string, calendar?: string): Float64Array {
  const cal = normalizeCalendar(calendar);
  const parsed = parseTimeUnits(units);
  const ref = instantOf(cal, parsed.reference);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) {
      out[i] = Number.NaN;
      continue;
    }
    const t = instantOfInput(cal, v);
    const days = t.day - ref.day;
    const micros = t.micros - ref.micros;
    // Whole days and the rest separately, so neither loses precision in the division.
    out[i] = (days * US_PER_DAY) / parsed.micros + micros / parsed.micros;
  }
  return out;
}
