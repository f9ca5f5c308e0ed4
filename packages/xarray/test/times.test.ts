import { describe, expect, it } from "vitest";
import { dateOfDay, dayNumber, decodeTimes, encodeTimes, normalizeCalendar, parseTimeUnits } from "../src/index.js";
import { requireXarray, xarrayPeer } from "./helpers.js";

const parts = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0, microsecond = 0) => ({
  year, month, day, hour, minute, second, microsecond,
});

describe("CF time units", () => {
  it("reads unit names, reference dates with times, fractions and time zones", () => {
    expect(parseTimeUnits("days since 1850-01-01")).toEqual({ unit: "days", micros: 86_400_000_000, reference: parts(1850, 1, 1) });
    expect(parseTimeUnits("hours since 1970-01-01 06:00:00").reference).toEqual(parts(1970, 1, 1, 6));
    expect(parseTimeUnits("s since 2000-1-1T12:30:15.25Z").reference).toEqual(parts(2000, 1, 1, 12, 30, 15, 250000));
    // +01:00 is one hour ahead of UTC: 00:00 there is 23:00 the day before (carried when decoded)
    expect(decodeTimes([0], "minutes since 2000-01-01 00:00 +01:00", "proleptic_gregorian").data[0]).toEqual(new Date("1999-12-31T23:00Z"));
    expect(parseTimeUnits("msec since 2000-01-01").unit).toBe("milliseconds");
  });

  it("refuses what it cannot read, naming the units", () => {
    expect(() => parseTimeUnits("days after 2000-01-01")).toThrow(/Cannot read the time units "days after 2000-01-01"/);
    expect(() => parseTimeUnits("fortnights since 2000-01-01")).toThrow(/unknown unit "fortnights"/);
    expect(() => parseTimeUnits("days since yesterday")).toThrow(/reference date "yesterday"/);
    expect(() => normalizeCalendar("lunar")).toThrow(expect.objectContaining({ code: "UNSUPPORTED" }));
  });

  it("calendar aliases", () => {
    expect(["gregorian", "365_day", "366_day", "STANDARD"].map(normalizeCalendar)).toEqual(["standard", "noleap", "all_leap", "standard"]);
    expect(normalizeCalendar(undefined)).toBe("standard");
  });
});

describe("calendars", () => {
  it("the standard calendar jumps from 1582-10-04 (Julian) to 1582-10-15 (Gregorian)", () => {
    expect(dayNumber("standard", 1582, 10, 15) - dayNumber("standard", 1582, 10, 4)).toBe(1);
    expect(() => dayNumber("standard", 1582, 10, 10)).toThrow(/skips 1582-10-05 to 1582-10-14/);
    expect(dateOfDay("standard", dayNumber("standard", 1582, 10, 4) + 1)).toEqual([1582, 10, 15]);
    // 1500 is a leap year in the Julian calendar, not in the Gregorian one
    expect(dayNumber("standard", 1500, 2, 29)).toBe(dayNumber("julian", 1500, 2, 29));
    expect(() => dayNumber("proleptic_gregorian", 1500, 2, 29)).toThrow(/no such day/);
  });

  it("idealized calendars: February 30 exists only in 360_day, February 29 always in all_leap, never in noleap", () => {
    expect(dateOfDay("360_day", dayNumber("360_day", 2001, 2, 30) + 1)).toEqual([2001, 3, 1]);
    expect(() => dayNumber("noleap", 2000, 2, 29)).toThrow(/no such day/);
    expect(dateOfDay("all_leap", dayNumber("all_leap", 2001, 2, 28) + 1)).toEqual([2001, 2, 29]);
    expect(dateOfDay("noleap", dayNumber("noleap", 2000, 12, 31) + 1)).toEqual([2001, 1, 1]);
  });

  it("julian and standard count years historically: year -1 precedes year 1", () => {
    expect(dateOfDay("julian", dayNumber("julian", 1, 1, 1) - 1)).toEqual([-1, 12, 31]);
    expect(() => dayNumber("julian", 0, 1, 1)).toThrow(/no year 0/);
    expect(dateOfDay("proleptic_gregorian", dayNumber("proleptic_gregorian", 1, 1, 1) - 1)).toEqual([0, 12, 31]);
  });
});

describe("decodeTimes", () => {
  it("proleptic_gregorian gives Dates; NaN gives null; sub-day units carry into days", () => {
    const { kind, data } = decodeTimes([0, 1.5, Number.NaN, -48], "hours since 1970-01-01 06:00:00", "proleptic_gregorian");
    expect(kind).toBe("datetime");
    expect(data).toEqual([new Date("1970-01-01T06:00Z"), new Date("1970-01-01T07:30Z"), null, new Date("1969-12-30T06:00Z")]);
  });

  it("standard gives Dates from 1582-10-15 on, date parts as soon as one date is earlier", () => {
    expect(decodeTimes([0, 1], "days since 1582-10-15").kind).toBe("datetime");
    const early = decodeTimes([-1, 0], "days since 1582-10-15", "gregorian");
    expect(early.kind).toBe("cftime");
    expect(early.data).toEqual([{ ...parts(1582, 10, 4), calendar: "standard" }, { ...parts(1582, 10, 15), calendar: "standard" }]);
  });

  it("non-standard calendars give date parts, never Dates (360_day has February 30)", () => {
    const d = decodeTimes([59, 60], "days since 2000-01-01", "360_day");
    expect(d.kind).toBe("cftime");
    expect(d.data).toEqual([{ ...parts(2000, 2, 30), calendar: "360_day" }, { ...parts(2000, 3, 1), calendar: "360_day" }]);
    expect(decodeTimes([0], "days since 2000-01-01", "julian").kind).toBe("cftime");
  });

  it("int64 counts (bigint) decode too", () => {
    expect(decodeTimes(new BigInt64Array([86400n]), "seconds since 2000-01-01", "noleap").data[0]).toMatchObject(parts(2000, 1, 2));
  });
});

describe("encodeTimes", () => {
  it("is the reverse of decodeTimes in every calendar", () => {
    for (const calendar of ["standard", "proleptic_gregorian", "julian", "noleap", "all_leap", "360_day"]) {
      const values = [-1000.5, 0, 59.25, 365, 100000];
      const decoded = decodeTimes(values, "days since 1600-03-01", calendar).data;
      expect(Array.from(encodeTimes(decoded, "days since 1600-03-01", calendar))).toEqual(values);
    }
  });

  it("Dates, date parts and null; dates the calendar lacks are refused", () => {
    expect(Array.from(encodeTimes([new Date("2000-01-02T12:00Z"), null], "days since 2000-01-01"))).toEqual([1.5, Number.NaN]);
    expect(Array.from(encodeTimes([{ year: 2000, month: 2, day: 30 }], "days since 2000-01-01", "360_day"))).toEqual([59]);
    expect(() => encodeTimes([{ year: 2000, month: 2, day: 30 }], "days since 2000-01-01", "noleap")).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => encodeTimes([{ year: 2000, month: 1, day: 1, calendar: "julian" } as never], "days since 2000-01-01", "noleap")).toThrow(
      /julian calendar cannot be encoded in the noleap/,
    );
  });
});

describe("against cftime 1.6 (num2date)", () => {
  it("every calendar, reference dates around 1582 and year 1, day counts from -800000 to 2900000 days, in days and hours", () => {
    requireXarray();
    const cases = JSON.parse(xarrayPeer("calendars")) as { calendar: string; units: string; values: number[]; dates: unknown[] }[];
    expect(cases.length).toBe(90);
    for (const c of cases) {
      const decoded = decodeTimes(c.values, c.units, c.calendar);
      const ours = decoded.data.map((d) => {
        if (d instanceof Date) {
          return parts(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds() * 1000);
        }
        if (d === null) return null;
        const { calendar: _, ...rest } = d;
        return rest;
      });
      expect({ calendar: c.calendar, units: c.units, dates: ours }).toEqual({ calendar: c.calendar, units: c.units, dates: c.dates });
    }
  });
});
