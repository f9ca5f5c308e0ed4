"""Writes arrays in the early Zarr v3 layout with zarr-python 2.13's experimental v3 API
(ZARR_V3_EXPERIMENTAL_API=1) into argv[1]; prints {"arrays": {path: canonical values},
"attributes": {path: attrs}} read back through zarr-python."""
import json
import sys

import numcodecs
import numpy as np
import zarr

from canonical import array as canonical

store = zarr.DirectoryStoreV3(sys.argv[1])
expected = {}
attrs = {}
rng = np.random.default_rng(7)


def make(path, shape, chunks, dtype, data=None, **kw):
    z = zarr.open(store, mode="w", zarr_version=3, path=path, shape=shape, chunks=chunks, dtype=dtype, **kw)
    if data is None:
        n = int(np.prod(shape))
        data = (rng.standard_normal(n) * 100).astype(dtype).reshape(shape)
    if shape and shape[0] > chunks[0]:
        z[: chunks[0]] = data[: chunks[0]]  # later chunks stay missing: fill value
    else:
        z[...] = data
    expected[path] = canonical(z[...])
    attrs[path] = {k: v for k, v in z.attrs.asdict().items() if k != "filters"}
    return z


for dt in ["<i2", ">i4", "<u8", ">f4", "<f8", "<f2", "|u1", "|i1"]:
    for order in "CF":
        make(f"dtypes/{dt[1:]}.{'be' if dt[0] == '>' else 'le'}.{order}", (5, 6), (2, 4), dt, order=order, fill_value=3)
make("dtypes/bool", (7,), (3,), "|b1", data=np.array([True, False, True, True, False, False, True]))
make("dtypes/c16", (4,), (3,), "<c16", data=np.array([1 + 2j, -1.5j, np.nan, 3]))
make("dtypes/M8", (4,), (3,), "<M8[s]", data=np.array([0, 1, -5, 10**9], dtype="<M8[s]"))
make("dtypes/U", (5,), (2,), "<U3", data=np.array(["a", "bb", "ccc", "", "日本"]))
make("dtypes/S", (5,), (2,), "|S3", data=np.array([b"a", b"bb", b"ccc", b"", b"z"]))
for name, comp in {
    "gzip": numcodecs.GZip(5),
    "zlib": numcodecs.Zlib(1),
    "blosc": numcodecs.Blosc(cname="zstd", shuffle=2),
    "bz2": numcodecs.BZ2(2),
    "lz4": numcodecs.LZ4(),
    "lzma": numcodecs.LZMA(),
    "none": None,
}.items():
    make(f"compressors/{name}", (20, 10), (8, 4), "<f4", compressor=comp, fill_value=np.nan)
make("filters/delta", (20,), (8,), "<i4", filters=[numcodecs.Delta(dtype="<i4")], data=np.arange(20, dtype="<i4") * 3)
make("layout/dot", (6, 5), (4, 2), "<i2", dimension_separator=".", data=np.arange(30, dtype="<i2").reshape(6, 5))
z = zarr.open(store, mode="w", zarr_version=3, path="objects/strings", shape=(5,), chunks=(2,), dtype=str)
z[...] = np.array(["x", "", "ü", "日本語", "😀"], dtype=object)
expected["objects/strings"] = canonical(z[...])
attrs["objects/strings"] = {}
g = zarr.open_group(store, mode="a", zarr_version=3, path="groups/a")
g.attrs.update({"title": "draft", "n": [1, 2]})
attrs["groups/a"] = {"title": "draft", "n": [1, 2]}
make("groups/a/b/arr", (3, 3), (2, 2), "<i8", data=np.arange(9, dtype="<i8").reshape(3, 3) - 4)
make("layout/zero-d", (), (), "<f8", data=np.array(2.5))
json.dump({"arrays": expected, "attributes": attrs}, sys.stdout)
