"""Writes a matrix of Zarr v2 arrays with zarr-python 2.13 into argv[1] and prints
{"arrays": {path: canonical values}, "attributes": {path: attrs}} read back through zarr-python."""
import json
import sys

import numcodecs
import numpy as np
import zarr

from canonical import array as canonical

out = sys.argv[1]
store = zarr.DirectoryStore(out)
root = zarr.group(store=store, overwrite=True)
root.attrs.update({"title": "matrix", "nested": {"a": [1, 2.5, None], "b": True}})
rng = np.random.default_rng(42)
expected = {}
attrs = {}


def values_for(dt, shape):
    n = int(np.prod(shape)) if shape else 1
    if dt.names is not None:
        a = np.zeros(n, dtype=dt)
        for i in range(n):
            a[i] = fill_record(dt, i)
        return a.reshape(shape)
    k = dt.kind
    if k == "b":
        return (rng.integers(0, 2, n) == 1).reshape(shape)
    if k in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, dtype=np.int64 if k == "i" or dt.itemsize < 8 else np.uint64, endpoint=True)
        return v.astype(dt).reshape(shape)
    if k == "f":
        v = (rng.standard_normal(n) * 1000).astype(dt)
        if n > 3 and not FINITE[0]:
            v[1] = np.nan
            v[2] = np.inf
            v[3] = -np.inf
        return v.reshape(shape)
    if k == "c":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt).reshape(shape)
    if k in "mM":
        v = rng.integers(-(2**40), 2**40, n).astype("i8")
        if n > 1:
            v[1] = np.iinfo("i8").min  # NaT
        return v.view(dt.newbyteorder("=")).astype(dt).reshape(shape)
    if k == "S":
        return np.array([bytes([97 + (i % 26)]) * (i % (dt.itemsize + 1)) for i in range(n)], dtype=dt).reshape(shape)
    if k == "U":
        words = ["", "a", "ß", "日本", "😀x", "zzzz"]
        return np.array([words[i % len(words)][: dt.itemsize // 4] for i in range(n)], dtype=dt).reshape(shape)
    if k == "V":
        return np.frombuffer(rng.integers(0, 256, n * dt.itemsize, dtype=np.uint8).tobytes(), dtype=dt).reshape(shape)
    raise ValueError(dt)


def fill_record(dt, i):
    rec = []
    for name in dt.names:
        fdt = dt.fields[name][0]
        base, sub = (fdt.subdtype if fdt.subdtype is not None else (fdt, ()))
        v = values_for(base, sub if sub else (1,))
        rec.append(v if sub else v.reshape(-1)[0])
    return tuple(rec)


FINITE = [False]


def make(path, shape, chunks, dtype, partial=True, finite=False, **kw):
    FINITE[0] = finite
    dt = np.dtype(dtype)
    z = root.create_dataset(path, shape=shape, chunks=chunks, dtype=dt, **kw)
    data = values_for(dt, shape)
    if partial and len(shape) > 0 and shape[0] > chunks[0]:
        z[: chunks[0]] = data[: chunks[0]]  # the other chunks stay missing: fill value
    else:
        z[...] = data
    expected[path] = canonical(z[...])
    return z


DTYPES = [
    "|b1", "|i1", "|u1", "<i2", ">i2", "<u2", ">u2", "<i4", ">i4", "<u4", ">u4", "<i8", ">i8", "<u8", ">u8",
    "<f2", ">f2", "<f4", ">f4", "<f8", ">f8", "<c8", ">c8", "<c16", ">c16",
    "<M8[ns]", ">M8[ns]", "<M8[D]", "<M8[10s]", "<m8[us]", ">m8[ms]",
    "|S5", "<U4", ">U4", "|V3",
]
STRUCTS = {
    "flat": [("x", "<f4"), ("y", "<i2"), ("z", "|u1")],
    "flat.be": [("x", ">f4"), ("y", ">i8"), ("s", "|S3")],
    "subarray": [("a", "<i2", (2, 3)), ("b", "|u1"), ("c", "<f8", (2,))],
    "nested": [("p", "<f8"), ("q", [("r", "<i4"), ("s", "|S3"), ("t", "<c8")])],
    "nested.subarray": [("n", [("u", "<u2"), ("v", "|b1")], (2,)), ("w", "<M8[s]")],
}
for dtype in DTYPES:
    for order in "CF":
        name = dtype.replace("|", "").replace("<", "le.").replace(">", "be.").replace("[", "_").replace("]", "")
        make(f"dtypes/{name}.{order}", (5, 7), (2, 3), dtype, order=order, compressor=numcodecs.Zlib(1))
for name, descr in STRUCTS.items():
    for order in "CF":
        make(f"structs/{name}.{order}", (4, 3), (3, 2), descr, order=order)

# fill values
make("fill/f8.nan", (6,), (2,), "<f8", fill_value=np.nan)
make("fill/f4.inf", (6,), (2,), "<f4", fill_value=np.inf)
make("fill/f8.neginf", (6,), (2,), ">f8", fill_value=-np.inf)
make("fill/f4.num", (6,), (2,), "<f4", fill_value=-2.5)
make("fill/i8.big", (6,), (2,), "<i8", fill_value=-(2**62) - 7)
make("fill/u8.max", (6,), (2,), ">u8", fill_value=2**64 - 1)
make("fill/c16", (6,), (2,), "<c16", fill_value=complex(1.5, -2))
make("fill/b1.true", (6,), (2,), "|b1", fill_value=True)
make("fill/S", (6,), (2,), "|S4", fill_value=b"ab")
make("fill/U", (6,), (2,), "<U3", fill_value="zz")
make("fill/V", (6,), (2,), "|V2", fill_value=b"\x01\x02")
make("fill/M8.nat", (6,), (2,), "<M8[s]", fill_value=np.datetime64("NaT"))
make("fill/M8.date", (6,), (2,), "<M8[D]", fill_value=np.datetime64("2020-01-02"))
make("fill/struct", (6,), (2,), [("a", "<i4"), ("b", "|S2")], fill_value=np.array((7, b"hi"), dtype=[("a", "<i4"), ("b", "|S2")]).tobytes())
make("fill/null.i4", (6,), (2,), "<i4", fill_value=None, partial=False)

# compressors
COMPRESSORS = {
    "none": None,
    "zlib": numcodecs.Zlib(level=1),
    "gzip": numcodecs.GZip(level=5),
    "bz2": numcodecs.BZ2(level=1),
    "lzma": numcodecs.LZMA(),
    "lz4": numcodecs.LZ4(acceleration=1),
    "zstd": numcodecs.Zstd(level=3),
}
for cname in ["lz4", "lz4hc", "blosclz", "zstd", "zlib", "snappy"]:
    for shuffle in [0, 1, 2, -1]:
        COMPRESSORS[f"blosc.{cname}.{shuffle}"] = numcodecs.Blosc(cname=cname, clevel=5, shuffle=shuffle)
for name, comp in COMPRESSORS.items():
    make(f"compressors/{name}", (30, 20), (16, 8), "<f4", compressor=comp, fill_value=1.5)
make("compressors/blosc.u1.auto", (300,), (100,), "|u1", compressor=numcodecs.Blosc(cname="lz4", shuffle=-1))

# filters
make("filters/delta", (50,), (20,), "<i4", filters=[numcodecs.Delta(dtype="<i4")])
make("filters/delta.astype", (50,), (20,), "<i4", filters=[numcodecs.Delta(dtype="<i4", astype="<i8")])
make("filters/fixedscaleoffset", (50,), (20,), "<f8", filters=[numcodecs.FixedScaleOffset(offset=1000, scale=10, dtype="<f8", astype="<i2")], finite=True)
make("filters/fixedscaleoffset.be", (50,), (20,), ">f8", filters=[numcodecs.FixedScaleOffset(offset=10, scale=100, dtype=">f8", astype=">i4")], finite=True)
make("filters/quantize", (50,), (20,), "<f4", filters=[numcodecs.Quantize(digits=2, dtype="<f4")], finite=True)
make("filters/bitround", (50,), (20,), "<f4", filters=[numcodecs.BitRound(keepbits=5)])
make("filters/packbits", (50,), (20,), "|b1", filters=[numcodecs.PackBits()])
make("filters/astype", (50,), (20,), "<f8", filters=[numcodecs.AsType(encode_dtype="<f4", decode_dtype="<f8")], finite=True)
make("filters/shuffle", (50,), (20,), "<i4", filters=[numcodecs.Shuffle(elementsize=4)])
make("filters/adler32", (50,), (20,), "<i2", filters=[numcodecs.Adler32()])
make("filters/crc32", (50,), (20,), "<i2", filters=[numcodecs.CRC32()])
make("filters/chain", (50, 4), (20, 3), ">i4", order="F", filters=[numcodecs.Delta(dtype=">i4"), numcodecs.Shuffle(elementsize=4)], compressor=numcodecs.Blosc(cname="zstd", shuffle=2))
cat = root.create_dataset("filters/categorize", shape=(10,), chunks=(4,), dtype="<U2",
                          filters=[numcodecs.Categorize(labels=["a", "bb", "c"], dtype="<U2", astype="|u1")])
cat[...] = np.array(["a", "bb", "c", "a", "x", "c", "c", "bb", "a", ""], dtype="<U2")
expected["filters/categorize"] = canonical(cat[...])

# object arrays
obj_values = [{"k": 1, "l": [1, 2]}, "text", 3, 2.5, None, [1, "two"], True, {"nested": {"x": None}}]
for codec_name, codec in [("json2", numcodecs.JSON()), ("msgpack2", numcodecs.MsgPack())]:
    z = root.create_dataset(f"objects/{codec_name}", shape=(8,), chunks=(3,), dtype=object, object_codec=codec, fill_value=None)
    z[:6] = np.array(obj_values[:6] + [], dtype=object)[:6]
    expected[f"objects/{codec_name}"] = canonical(z[...])
    z = root.create_dataset(f"objects/{codec_name}.2d.F", shape=(3, 4), chunks=(2, 3), dtype=object, object_codec=codec, order="F")
    vals = np.empty((3, 4), dtype=object)
    for i in range(12):
        vals.flat[i] = obj_values[i % len(obj_values)]
    z[...] = vals
    expected[f"objects/{codec_name}.2d.F"] = canonical(z[...])
z = root.create_dataset("objects/vlen-utf8", shape=(7,), chunks=(3,), dtype=str, fill_value="zz")
z[:5] = np.array(["", "a", "ümlaut", "日本語", "😀"], dtype=object)
expected["objects/vlen-utf8"] = canonical(z[...])
z = root.create_dataset("objects/vlen-utf8.2d", shape=(4, 5), chunks=(3, 2), dtype=str, order="F", compressor=numcodecs.Zstd(1))
z[...] = np.array([[f"{i}-{j}" * (i + j) for j in range(5)] for i in range(4)], dtype=object)
expected["objects/vlen-utf8.2d"] = canonical(z[...])
z = root.create_dataset("objects/vlen-bytes", shape=(5,), chunks=(2,), dtype=bytes)
z[...] = np.array([b"", b"\x00\x01", b"abc", b"\xff" * 10, b"z"], dtype=object)
expected["objects/vlen-bytes"] = canonical(z[...])

# separators, 0-d, 5-d
make("layout/nested", (6, 5), (4, 2), "<i2", dimension_separator="/")
make("layout/nested.F", (6, 5, 3), (4, 2, 2), ">u4", order="F", dimension_separator="/")
make("layout/zero-d", (), (), "<f8")
make("layout/zero-d.struct", (), (), [("a", "<i2"), ("b", "<f4")])
make("layout/five-d", (3, 2, 4, 2, 3), (2, 1, 3, 2, 2), "<i4", order="F")
make("layout/five-d.C", (3, 2, 4, 2, 3), (2, 2, 2, 1, 3), ">f8", compressor=numcodecs.GZip(1))
make("layout/empty", (0, 4), (1, 2), "<i2")

# hierarchy with attributes
g = root.create_group("hierarchy/a/b")
g.attrs.update({"level": 2, "unicode": "π"})
root["hierarchy/a"].attrs["level"] = 1
z = make("hierarchy/a/b/arr", (4, 4), (2, 2), "<i2", fill_value=-1)
z.attrs.update({"_ARRAY_DIMENSIONS": ["y", "x"], "units": "K", "scale_factor": 0.5})
root.create_group("hierarchy/empty")

for path in expected:
    attrs[path] = dict(root[path].attrs)
for path in ["", "hierarchy", "hierarchy/a", "hierarchy/a/b", "hierarchy/empty"]:
    attrs[path] = dict(root[path].attrs) if path else dict(root.attrs)

zarr.consolidate_metadata(store, path="hierarchy")
json.dump({"arrays": expected, "attributes": attrs}, sys.stdout)
