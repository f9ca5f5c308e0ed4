#!/usr/bin/python3
"""Writes test-data/: ZFP streams made by zfpy (libzfp 1.0) with what zfpy decodes them to,
and a Zarr v2 array written by zarr-python 2 with numcodecs' ZFPY compressor.
Run from the package directory: /usr/bin/python3 scripts/make-test-data.py"""
import json, os, shutil
import numpy as np
import zfpy, zarr, numcodecs

OUT = "test-data"
VECTORS = os.path.join(OUT, "vectors")
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(VECTORS)


def field(dtype, shape, seed, wild=False):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if wild:  # random bits: NaNs (signalling too), infinities, subnormals, full-range integers
        return rng.integers(0, 256, size=int(np.prod(shape)) * dt.itemsize, dtype=np.uint8).view(dt).reshape(shape)
    grids = np.meshgrid(*[np.linspace(0, 3, s) for s in shape], indexing="ij")
    v = sum(np.sin(g * (i + 1)) for i, g in enumerate(grids)) + 0.01 * rng.standard_normal(shape)
    v[tuple(slice(0, 4) for _ in shape)] = 0  # an all-zero block
    return (v * (1e15 if dt.itemsize == 8 else 1e6)).astype(dt) if dt.kind == "i" else v.astype(dt)


# (name, dtype, shape, compress_numpy keywords, wild data)
CASES = [
    ("f32-1d-reversible", "float32", (9,), {}, True),
    ("f32-2d-accuracy", "float32", (6, 7), {"tolerance": 1e-3}, False),
    ("f32-3d-rate", "float32", (5, 6, 3), {"rate": 6}, False),
    ("f32-4d-precision", "float32", (2, 3, 5, 5), {"precision": 10}, False),
    ("f32-3d-expert", "float32", (5, 5, 5), {"rate": 33}, False),  # 2112 bits a block: the 64-bit mode form
    ("f32-2d-reversible", "float32", (5, 6), {}, False),
    ("f64-1d-accuracy", "float64", (11,), {"tolerance": 1e-9}, False),
    ("f64-2d-reversible", "float64", (5, 5), {}, True),
    ("f64-3d-precision", "float64", (5, 4, 6), {"precision": 20}, False),
    ("f64-4d-rate", "float64", (3, 2, 5, 5), {"rate": 3}, False),
    ("f64-2d-tolerance0", "float64", (6, 6), {"tolerance": 0}, False),  # all defaults: expert mode
    ("i32-1d-reversible", "int32", (10,), {}, True),
    ("i32-2d-precision", "int32", (7, 5), {"precision": 18}, False),
    ("i32-3d-rate", "int32", (3, 5, 6), {"rate": 10}, False),
    ("i64-2d-reversible", "int64", (5, 7), {}, True),
    ("i64-3d-precision", "int64", (3, 5, 5), {"precision": 40}, False),
    ("i64-4d-rate", "int64", (2, 2, 5, 3), {"rate": 12}, False),
]
manifest = []
for seed, (name, dtype, shape, args, wild) in enumerate(CASES):
    a = field(dtype, shape, seed, wild)
    stream = zfpy.compress_numpy(a, **args)
    decoded = zfpy.decompress_numpy(stream)
    with open(os.path.join(VECTORS, name + ".zfp"), "wb") as f:
        f.write(stream)
    with open(os.path.join(VECTORS, name + ".bin"), "wb") as f:
        f.write(decoded.astype(decoded.dtype.newbyteorder("<")).tobytes())
    manifest.append({"name": name, "dtype": dtype, "shape": list(shape), "args": args})
with open(os.path.join(VECTORS, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
    f.write("\n")

# A Zarr v2 array as zarr-python 2 writes it with numcodecs' ZFPY (edge chunks included).
temperature = field("float32", (10, 13), 99) * 10 + 280
z = zarr.open(os.path.join(OUT, "temperature.zarr"), mode="w", shape=(10, 13), chunks=(6, 8), dtype="f4",
              compressor=numcodecs.ZFPY(mode=zfpy.mode_fixed_accuracy, tolerance=0.01))
z[:] = temperature
with open(os.path.join(OUT, "temperature.bin"), "wb") as f:
    f.write(zarr.open(os.path.join(OUT, "temperature.zarr"), mode="r")[:].astype("<f4").tobytes())
