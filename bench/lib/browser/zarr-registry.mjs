// The codecs of the @zarr pages, registered as an app reading these arrays would: gzip and
// zlib (small, eager), zstd and blosc as lazy entries loaded by the first array using them
// (zarrita.js loads its numcodecs.js blosc and zstd on first use the same way).

import { bloscLazy } from "@zarr/codec-blosc/lazy";
import { gzip, zlib } from "@zarr/codec-gzip";
import { zstdLazy } from "@zarr/codec-zstd/lazy";
import { createRegistry } from "@zarr/core";

export const registry = createRegistry([gzip, zlib, zstdLazy, bloscLazy]);
