/**
 * CF calendars as day counts. Real-world calendars (standard, proleptic_gregorian, julian)
 * count chronological Julian Day Numbers, so a day has the same number whichever of them
 * names it; the idealized calendars (noleap, all_leap, 360_day) count days from their
 * year 0. The standard calendar is Julian before 1582-10-15 and Gregorian from then on,
 * as cftime's `standard`/`gregorian` calendar is.
 */
import { ZarrError } from "@zarr/spec";

/** A CF calendar, by its canonical name (aliases: gregorian → standard, 365_day → noleap, 366_day → all_leap). */
export type CFCalendar = "standard" | "proleptic_gregorian" | "julian" | "noleap" | "all_leap" | "360_day";

/** A date and time in some calendar: what a date of a non-Gregorian calendar decodes to. */
export interface DateParts {
  year: number;
  /** 1–12. */
  month: number;
  /** 1–31 (1–30 in the 360_day calendar). */
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0–999999. */
  microsecond: number;
}

/** Date parts given as input: the time of day defaults to midnight. */
export type DateInput = Pick<DateParts, "year" | "month" | "day"> & Partial<DateParts>;

const ALIASES: Record<string, CFCalendar> = {
  standard: "standard",
  gregorian: "standard",
  proleptic_gregorian: "proleptic_gregorian",
  julian: "julian",
  noleap: "noleap",
  "365_day": "noleap",
  all_leap: "all_leap",
  "366_day": "all_leap",
  "360_day": "360_day",
};

/**
 * The canonical name of a CF `calendar` attribute (case-insensitive; absent means
 * `standard`). Throws `UNSUPPORTED` for a calendar we cannot decode.
 *
 * @example
 * ```ts
 * normalizeCalendar("365_day"); // "noleap"
 * ```
 */
export function normalizeCalendar(name: string | undefined): CFCalendar {
  if (name === undefined) return "standard";
  const calendar = ALIASES[name.trim().toLowerCase()];
  if (calendar === undefined) {
    throw new ZarrError("UNSUPPORTED", `Unknown CF calendar "${name}" (expected one of ${Object.keys(ALIASES).join(", ")})`);
  }
  return calendar;
}

/** Julian Day Number of the first Gregorian day of the standard calendar, 1582-10-15. */
export const GREGORIAN_START_JDN = 2299161;
/** Julian Day Number of 1970-01-01 (the Unix epoch). */
export const UNIX_EPOCH_JDN = 2440588;

const CUMULATIVE = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
const CUMULATIVE_LEAP = [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366];

function isGregorianLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
function isJulianLeap(year: number): boolean {
  return ((year % 4) + 4) % 4 === 0;
}

/** True when the real-world calendar counts years historically (no year 0: year -1 precedes year 1), as cftime does for julian and standard. */
function historicalYears(calendar: CFCalendar): boolean {
  return calendar === "standard" || calendar === "julian";
}
function toAstronomical(calendar: CFCalendar, year: number): number {
  return historicalYears(calendar) && year < 0 ? year + 1 : year;
}
function fromAstronomical(calendar: CFCalendar, year: number): number {
  return historicalYears(calendar) && year <= 0 ? year - 1 : year;
}

/** Days in `month` of `year` in `calendar`. */
export function daysInMonth(calendar: CFCalendar, year: number, month: number): number {
  if (calendar === "360_day") return 30;
  const astro = toAstronomical(calendar, year);
  let leap: boolean;
  if (calendar === "noleap") leap = false;
  else if (calendar === "all_leap") leap = true;
  else if (calendar === "julian") leap = isJulianLeap(astro);
  else if (calendar === "proleptic_gregorian") leap = isGregorianLeap(astro);
  else leap = astro < 1582 ? isJulianLeap(astro) : isGregorianLeap(astro);
  const table = leap ? CUMULATIVE_LEAP : CUMULATIVE;
  return table[month] - table[month - 1];
}

function gregorianJdn(y: number, m: number, d: number): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400) - 32045;
}
function julianJdn(y: number, m: number, d: number): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - 32083;
}
/** Richards' inverse of the day number; `gregorian` selects the century correction. */
function fromJdn(jdn: number, gregorian: boolean): [number, number, number] {
  let c: number;
  let b = 0;
  if (gregorian) {
    const a = jdn + 32044;
    b = Math.floor((4 * a + 3) / 146097);
    c = a - Math.floor((146097 * b) / 4);
  } else {
    c = jdn + 32082;
  }
  const d = Math.floor((4 * c + 3) / 1461);
  const e = c - Math.floor((1461 * d) / 4);
  const m = Math.floor((5 * e + 2) / 153);
  const day = e - Math.floor((153 * m + 2) / 5) + 1;
  const month = m + 3 - 12 * Math.floor(m / 10);
  const year = 100 * b + d - 4800 + Math.floor(m / 10);
  return [year, month, day];
}

/**
 * The day number of a date in `calendar`. Throws `INVALID_ARGUMENT` for a date the
 * calendar does not have (February 30 outside 360_day, 1582-10-10 in the standard calendar).
 */
export function dayNumber(calendar: CFCalendar, year: number, month: number, day: number): number {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day) || month < 1 || month > 12 || day < 1) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid date ${year}-${month}-${day} in the ${calendar} calendar`);
  }
  if (historicalYears(calendar) && year === 0) {
    throw new ZarrError("INVALID_ARGUMENT", `The ${calendar} calendar has no year 0 (year -1 precedes year 1)`);
  }
  if (day > daysInMonth(calendar, year, month)) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid date ${year}-${month}-${day}: the ${calendar} calendar has no such day`);
  }
  const y = toAstronomical(calendar, year);
  switch (calendar) {
    case "360_day":
      return y * 360 + (month - 1) * 30 + day - 1;
    case "noleap":
      return y * 365 + CUMULATIVE[month - 1] + day - 1;
    case "all_leap":
      return y * 366 + CUMULATIVE_LEAP[month - 1] + day - 1;
    case "julian":
      return julianJdn(y, month, day);
    case "proleptic_gregorian":
      return gregorianJdn(y, month, day);
    case "standard": {
      const gregorian = gregorianJdn(y, month, day);
      if (gregorian >= GREGORIAN_START_JDN) return gregorian;
      const julian = julianJdn(y, month, day);
      if (julian >= GREGORIAN_START_JDN) {
        throw new ZarrError("INVALID_ARGUMENT", `Invalid date ${year}-${month}-${day}: the standard calendar skips 1582-10-05 to 1582-10-14`);
      }
      return julian;
    }
  }
}

/** The date of a day number in `calendar` (the inverse of {@link dayNumber}). */
export function dateOfDay(calendar: CFCalendar, n: number): [year: number, month: number, day: number] {
  let ymd: [number, number, number];
  const idealized = (length: number, table: readonly number[] | undefined): [number, number, number] => {
    const year = Math.floor(n / length);
    const doy = n - year * length;
    if (table === undefined) return [year, Math.floor(doy / 30) + 1, (doy % 30) + 1];
    let month = 1;
    while (table[month] <= doy) month++;
    return [year, month, doy - table[month - 1] + 1];
  };
  switch (calendar) {
    case "360_day":
      return idealized(360, undefined);
    case "noleap":
      return idealized(365, CUMULATIVE);
    case "all_leap":
      return idealized(366, CUMULATIVE_LEAP);
    case "julian":
      ymd = fromJdn(n, false);
      break;
    case "proleptic_gregorian":
      ymd = fromJdn(n, true);
      break;
    case "standard":
      ymd = fromJdn(n, n >= GREGORIAN_START_JDN);
      break;
  }
  return [fromAstronomical(calendar, ymd[0]), ymd[1], ymd[2]];
}
