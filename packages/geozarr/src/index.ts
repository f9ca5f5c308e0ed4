/**
 * @zarr/geozarr: the GeoZarr conventions (zarr_conventions, proj:, spatial:, multiscales),
 * whole-hierarchy validation, effective georeferencing, geo helpers, builders, pyramid
 * generation and migration from older layouts. The proj4 adapter is at
 * `@zarr/geozarr/proj4`.
 */
export {
  type Affine,
  affineBounds,
  affineClose,
  affineFromGdal,
  affineToGdal,
  applyAffine,
  composeAffine,
  determinant,
  IDENTITY,
  invertAffine,
  isAffine,
  isAxisAligned,
  pixelSize,
  scaleAffine,
} from "./affine.js";
export {
  type BBox,
  COMMON_RESAMPLING,
  type LayoutEntry,
  type LevelTransform,
  type MultiscalesAttributes,
  type Parsed,
  PROJ_CODE_PATTERNS,
  type Registration,
  readMultiscales,
  readProj,
  readSpatial,
  type SpatialAttributes,
} from "./attributes.js";
export {
  type ConventionsOption,
  type CreateDatasetOptions,
  createDataset,
  datasetAttributes,
  type LevelInput,
  layoutEntry,
  mergeAttributes,
  multiscalesAttributes,
  projAttributes,
  type SpatialInput,
  spatialAttributes,
  writeCoordinates,
} from "./builders.js";
export {
  CONVENTION_ENTRIES,
  CONVENTION_ENTRIES_BY_VERSION,
  CONVENTION_UUIDS,
  CONVENTIONS_VERSIONS,
  type ConventionDeclaration,
  type ConventionName,
  type ConventionsVersion,
  type ConventionUrl,
  conventionDeclarations,
  conventionsVersion,
  type DetectedConventions,
  detectConventions,
  hasConvention,
  parseConventionUrl,
  rulesOfVersion,
  withConventions,
} from "./conventions.js";
export {
  type Crs,
  type CrsSource,
  crsCode,
  crsFromGdal,
  crsFromString,
  crsLabel,
  epsgCode,
  isCrsCode,
  isGeographic,
  normaliseCode,
  projjsonAuthorityCode,
  projjsonProblem,
  type ResolvedCrs,
  sameCrs,
  wktAuthorityCode,
  wktName,
  wktVersion,
} from "./crs.js";
export {
  type DimensionRoles,
  type EffectiveGeoreference,
  effectiveGeoreference,
  type FieldOrigin,
  gridExtent,
  type Provenance,
  pixelCenter,
  resolution,
} from "./effective.js";
export { type Finding, type Issue, RULES, type RuleId, type Severity } from "./findings.js";
export {
  bboxToWindows,
  chooseLevel,
  crsToPixel,
  type GridGeometry,
  type IndexWindow,
  type LevelTarget,
  pixelAt,
  pixelToCrs,
  type TileGrid,
  type TileMatrix,
  tileGrid,
  type WindowOptions,
} from "./geo.js";
export {
  GeoHierarchy,
  type GeoNode,
  type HierarchyDump,
  hierarchyFromDump,
  type LoadHierarchyOptions,
  loadHierarchy,
  storeFromDump,
} from "./hierarchy.js";
export { crsFromGridMapping, inferSpatialDimensions, transformFromGeoTransform, transformFromStac } from "./legacy.js";
export { type MigrateOptions, type MigrationChange, type MigrationReport, migrate } from "./migrate.js";
export { describeMultiscales, findMultiscales, type MultiscaleDataset, type MultiscaleLevel } from "./multiscale.js";
export { type PlannedLevel, type PlanOptions, planPyramid } from "./plan.js";
export {
  type ArraySpec,
  buildPyramid,
  gdalCrsAttribute,
  type PyramidOptions,
  type PyramidProgress,
  type PyramidResult,
  type PyramidWriter,
  v2Writer,
  v3Writer,
} from "./pyramid.js";
export { type PyramidJobOptions, pyramidJob } from "./pyramid-job.js";
export { type BboxData, type ReadBboxOptions, readBbox } from "./read.js";
export {
  type CrsLike,
  IDENTITY_REPROJECTION,
  type PointTransform,
  type Reprojection,
  type Reprojector,
  reprojectBbox,
  reprojection,
  toCrs,
} from "./reproject.js";
export { type Plane, parseResampling, RESAMPLING_METHODS, type ReduceOptions, type ResamplingMethod, reducePlane } from "./resample.js";
export {
  listRules,
  type ValidateOptions,
  type ValidateSourceOptions,
  type ValidationReport,
  validate,
  validateDocument,
  validateHierarchy,
} from "./validate.js";
