/**
 * GDAL as the reference for tile pixels: a grid written as raw samples plus a VRT that
 * carries its geotransform, CRS and nodata (a source GDAL reads with exactly the
 * georeferencing we give it), then `gdalwarp` of one Web Mercator tile.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type Samples = Float32Array | Float64Array | Int16Array | Uint16Array | Int32Array | Uint8Array;

const GDAL_TYPES: Record<string, string> = {
  Float32Array: "Float32",
  Float64Array: "Float64",
  Int16Array: "Int16",
  Uint16Array: "UInt16",
  Int32Array: "Int32",
  Uint8Array: "Byte",
};

/**
 * Writes `name.bin` and `name.vrt` in `dir`. `transform` is ours, `[a, b, c, d, e, f]`
 * with x = a·col + b·row + c and (0, 0) the outer corner of the top-left pixel; GDAL's
 * geotransform is the same six numbers in the order (c, a, b, f, d, e), also with its
 * origin at the outer corner (pixel-is-area), so no half-pixel shift is involved.
 */
export function writeVrt(dir: string, name: string, grid: { data: Samples; width: number; height: number; transform: readonly number[]; srs: string; nodata?: number }): string {
  const { data, width, height, transform: t } = grid;
  writeFileSync(join(dir, `${name}.bin`), new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  const type = GDAL_TYPES[data.constructor.name];
  const nodata = grid.nodata === undefined ? "" : `<NoDataValue>${Number.isNaN(grid.nodata) ? "nan" : grid.nodata}</NoDataValue>`;
  const vrt = `<VRTDataset rasterXSize="${width}" rasterYSize="${height}">
  <SRS>${grid.srs}</SRS>
  <GeoTransform>${[t[2], t[0], t[1], t[5], t[3], t[4]].map((v) => v.toPrecision(17)).join(", ")}</GeoTransform>
  <VRTRasterBand dataType="${type}" band="1" subClass="VRTRawRasterBand">
    ${nodata}
    <SourceFilename relativeToVRT="1">${name}.bin</SourceFilename>
    <ImageOffset>0</ImageOffset>
    <PixelOffset>${data.BYTES_PER_ELEMENT}</PixelOffset>
    <LineOffset>${data.BYTES_PER_ELEMENT * width}</LineOffset>
    <ByteOrder>LSB</ByteOrder>
  </VRTRasterBand>
</VRTDataset>
`;
  const path = join(dir, `${name}.vrt`);
  writeFileSync(path, vrt);
  return path;
}

/** Marks destination pixels that GDAL leaves without data. */
export const GDAL_EMPTY = -1e30;

/**
 * `gdalwarp -t_srs EPSG:3857 -te <bounds> -ts 256 256 -r near` of `vrt`, as float64
 * values (GDAL_EMPTY where GDAL writes no data). `-et 0` makes GDAL transform every pixel
 * centre exactly, as the tile function does: by default gdalwarp interpolates the
 * transform along each row within 0.125 pixel, which moves nearest-neighbour picks.
 */
export function gdalwarpTile(dir: string, vrt: string, bounds: readonly number[], tag: string): Float64Array {
  const out = join(dir, `${tag}.bin`);
  execFileSync(
    "gdalwarp",
    ["-q", "-overwrite", "-t_srs", "EPSG:3857", "-te", ...bounds.map((v) => v.toPrecision(17)), "-ts", "256", "256", "-r", "near", "-et", "0"]
      .concat(["-ot", "Float64", "-dstnodata", String(GDAL_EMPTY), "-of", "ENVI", vrt, out]),
    { stdio: "pipe" },
  );
  const bytes = readFileSync(out);
  return new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}
