/**
 * libtiff (through GDAL) is the other implementation: it reads a TIFF whose strip our
 * encoder compressed, and our decoder reads the strips libtiff compressed, byte for byte.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { haveGdal, requirePeer } from "../../../scripts/test-env.mjs";
import { lzwCompress, lzwDecompress } from "../src/index.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const W = 300;
const H = 200;
/** Gradients with noise: long enough to need 12-bit codes and table resets. */
function pixels(): Uint8Array {
  let seed = 5;
  return Uint8Array.from({ length: W * H }, (_, i) => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return ((i % W) + (i / W) * 0.5 + (seed >>> 28)) & 0xff;
  });
}

/** A one-strip little-endian TIFF of `data` by gdal_translate, with the given compression. */
function gdalStripTiff(data: Uint8Array, compress: string): string {
  const dir = mkdtempSync(join(tmpdir(), "lzw-interop-"));
  dirs.push(dir);
  writeFileSync(join(dir, "in.raw"), data);
  writeFileSync(join(dir, "in.hdr"), `ENVI\nsamples = ${W}\nlines = ${H}\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\ndata type = 1\ninterleave = bsq\nbyte order = 0\n`);
  const out = join(dir, `${compress}.tif`);
  execFileSync("gdal_translate", ["-q", "-co", `COMPRESS=${compress}`, "-co", `BLOCKYSIZE=${H}`, join(dir, "in.raw"), out], { stdio: "pipe" });
  return out;
}

/** The IFD entries of a classic little-endian TIFF's first image: tag → byte position of the entry. */
function entries(file: Uint8Array): Map<number, number> {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  expect(view.getUint16(0, true)).toBe(0x4949); // "II"
  const ifd = view.getUint32(4, true);
  const found = new Map<number, number>();
  for (let i = 0; i < view.getUint16(ifd, true); i++) found.set(view.getUint16(ifd + 2 + i * 12, true), ifd + 2 + i * 12);
  return found;
}

/** The value of a one-value SHORT or LONG entry. */
function value(view: DataView, entry: number): number {
  return view.getUint16(entry + 2, true) === 3 ? view.getUint16(entry + 8, true) : view.getUint32(entry + 8, true);
}

describe("TIFF LZW against libtiff", () => {
  it("GDAL reads a strip our encoder compressed", () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const data = pixels();
    const tif = gdalStripTiff(data, "NONE");
    const file = new Uint8Array(readFileSync(tif));
    const view = new DataView(file.buffer);
    const at = entries(file);
    const offset = value(view, at.get(273) as number);
    expect(value(view, at.get(279) as number)).toBe(W * H);
    const packed = lzwCompress(file.subarray(offset, offset + W * H));
    // Append the LZW strip and point the IFD at it: Compression 5, StripOffsets, StripByteCounts.
    const patched = new Uint8Array(file.length + packed.length);
    patched.set(file);
    patched.set(packed, file.length);
    const pv = new DataView(patched.buffer);
    pv.setUint16((at.get(259) as number) + 8, 5, true);
    pv.setUint32((at.get(273) as number) + 8, file.length, true);
    pv.setUint32((at.get(279) as number) + 8, packed.length, true);
    const lzwTif = tif.replace(/NONE\.tif$/, "ours.tif");
    writeFileSync(lzwTif, patched);
    expect(execFileSync("gdalinfo", [lzwTif], { encoding: "utf8" })).toContain("COMPRESSION=LZW");
    const raw = lzwTif.replace(/\.tif$/, ".raw");
    execFileSync("gdal_translate", ["-q", "-of", "ENVI", lzwTif, raw], { stdio: "pipe" });
    expect(Buffer.from(readFileSync(raw)).equals(Buffer.from(data))).toBe(true);
  });

  it("our decoder reads the strip libtiff compressed", () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const data = pixels();
    const file = new Uint8Array(readFileSync(gdalStripTiff(data, "LZW")));
    const view = new DataView(file.buffer);
    const at = entries(file);
    expect(value(view, at.get(259) as number)).toBe(5);
    const offset = value(view, at.get(273) as number);
    const length = value(view, at.get(279) as number);
    expect(length).toBeGreaterThan(4096); // long enough for table resets
    expect(Buffer.from(lzwDecompress(file.subarray(offset, offset + length), { maxOutputLength: W * H })).equals(Buffer.from(data))).toBe(true);
  });
});
