/**
 * @zarr/xarray: Zarr groups written by xarray read as CF-decoded datasets (named
 * dimensions, coordinates, unpacked and masked values, dates in CF calendars, strings),
 * and datasets written the way xarray writes them.
 */

export { type CFCalendar, type DateInput, type DateParts, dateOfDay, dayNumber, daysInMonth, normalizeCalendar } from "./calendars.js";
export { type Dataset, type OpenDatasetOptions, openDataset, type Variable } from "./dataset.js";
export { type DecodedArray, type GetDecodedOptions, getDecoded } from "./decode.js";
export {
  type DatasetSpec,
  type EncodedVariable,
  encodeVariable,
  type StorageType,
  type VariableEncoding,
  type VariableSpec,
  type WriteDatasetOptions,
  writeDataset,
} from "./encode.js";
export { chooseFloatSize, type DecodedNumbers, type NumericType, type PackingAttributes, unpackNumbers } from "./mask-scale.js";
export { type CFDateTime, type DecodedTimes, decodeTimes, encodeTimes, isTimeUnits, parseTimeUnits, type TimeUnits } from "./times.js";
