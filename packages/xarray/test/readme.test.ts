import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README examples run and print what they say", () => {
  const [reading, rules, writing] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(reading).toContain("{ station: 3, time: 2 } [ 'station', 'time' ] [ 't2m' ]");
  expect(reading).toContain("[ 'time', 'station' ] { units: 'K' } { scale_factor: 0.01, add_offset: 273.15, _FillValue: -32767 }");
  expect(reading).toContain("number float32 [ 2, 3 ] 280.15 275.50 NaN 281.25 274.00 290.05");
  expect(reading).toContain("[ 2 ] Float32Array(2) [ 281.25, 274 ]");
  expect(reading).toContain("[ '2024-01-01T00:00:00.000Z', '2024-01-01T06:00:00.000Z' ]");
  expect(reading).toContain("[ 'Brest', 'Zürich', 'Ōsaka' ]");
  expect(reading).toContain("int16 Int16Array(6) [ 700, 235, -32767, 810, 85, 1690 ]");
  expect(rules).toContain("cftime [ '2000-2-29', '2000-2-30', '2000-3-1' ]\ncftime [ '1582-10-4', '1582-10-15' ]\nFloat64Array(1) [ 59.5 ]");
  expect(rules).toContain("{ kind: 'float', size: 4 } Float32Array(2) [ 50, NaN ]");
  expect(writing).toContain("int16 Int16Array(3) [ 700, -32767, -2315 ] { add_offset: 273.15, scale_factor: 0.01 }");
  expect(writing).toContain("{ _FillValue: 'AAAAAICHw8A=' } [ 'day' ]\n{ _FillValue: -9999 } Float32Array(1) [ NaN ]");
  expect(writing).toMatch(/year: 2001,\s+month: 2,\s+day: 30,[\s\S]*calendar: '360_day'/);
});
