"""Writes the .npy test corpus of the CLI tests and prints its manifest.

Usage: python3 make_corpus.py OUT_DIR

One .npy file per case, covering every data type @zarr/core supports and the edges of
each (integer limits, float specials and NaN payloads built from bit patterns, UTF-32
beyond the BMP, NaT, ...), plus layouts (1-5 dimensions, 0-d, zero-length dimensions,
Fortran order, a big-endian file). The manifest (JSON on stdout) lists per case the file, the
shape, the Zarr data type the CLI should map the dtype to, and the canonical values,
all computed here with numpy, independently of the TypeScript code.
"""

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
from independent_reader import canonical_values  # noqa: E402

rng = np.random.default_rng(20240601)


def from_bits(bits, kind, size, order="<"):
    """An array of floats of `size` bytes from unsigned integer bit patterns (exact, NaN payloads kept)."""
    raw = np.array(bits, dtype="%su%d" % (order, size))
    return raw.view("%s%s%d" % (order, kind, size))


def zarr_data_type(dtype):
    kind, size = dtype.kind, dtype.itemsize
    if kind == "b":
        return "bool"
    if kind in "iu":
        return ("int%d" if kind == "i" else "uint%d") % (8 * size)
    if kind == "f":
        return "float%d" % (8 * size)
    if kind == "c":
        return "complex%d" % (8 * size)
    if kind == "U":
        return {"name": "fixed_length_utf32", "configuration": {"length_bytes": size}}
    if kind in "SV":
        return "r%d" % (8 * size)
    if kind in "Mm":
        unit, scale = np.datetime_data(dtype)
        name = "numpy.datetime64" if kind == "M" else "numpy.timedelta64"
        return {"name": name, "configuration": {"unit": unit, "scale_factor": scale}}
    raise ValueError(dtype)


cases = {}


def add(name, a):
    cases[name] = a


# bool
add("bool", rng.integers(0, 2, size=(5, 7)).astype("?"))

# integers with their exact limits
for kind in "iu":
    for size in (1, 2, 4, 8):
        dt = np.dtype("%s%d" % (kind, size))
        info = np.iinfo(dt)
        edges = [info.min, info.max, 0, 1, info.max - 1, info.min + 1]
        if kind == "i":
            edges += [-1, -2]
        body = rng.integers(info.min, info.max, size=24 - len(edges), dtype=dt, endpoint=True)
        add("%s%d" % (kind, size), np.concatenate([np.array(edges, dtype=dt), body]).reshape(4, 6))

# floats from bit patterns: ±0, ±inf, NaNs with payloads (quiet, signalling, negative), subnormals, limits
F16 = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7D01, 0xFE01, 0x7C01,
       0x0001, 0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0x3555, 0xC000]
F32 = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FC00001, 0x7F800001, 0xFFC12345,
       0x00000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0x3EAAAAAB, 0xC0490FDB]
F64 = [0x0000000000000000, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
       0x7FF8000000000000, 0x7FF8000000000001, 0x7FF0000000000001, 0xFFF8000000000123,
       0x0000000000000001, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF,
       0xFFEFFFFFFFFFFFFF, 0x3FF0000000000000, 0x3FD5555555555555, 0xC00921FB54442D18]
add("f2", from_bits(F16, "f", 2).reshape(4, 4))
add("f4", from_bits(F32, "f", 4).reshape(2, 8))
add("f8", from_bits(F64, "f", 8).reshape(4, 2, 2))
# complex: every special as the real part and as the imaginary part
add("c8", from_bits(F32 + F32[::-1], "f", 4).view("<c8").reshape(4, 4))
add("c16", from_bits(F64 + F64[::-1], "f", 8).view("<c16").reshape(2, 8))

# fixed-length unicode: empty, ASCII, Latin-1, non-BMP, full length
add("U5", np.array(["", "a", "héllo", "😀😁😂🤣😃", "ab\u00e9c", "x\u4e2dy", "😀", "12345"], dtype="<U5").reshape(2, 4))
add("U4_be", np.array(["😀abc", "", "Ωmega"[:4], "\U0010FFFF"], dtype=">U4"))

# raw bytes and fixed bytes (both map to r<N>)
v = rng.integers(0, 256, size=(6, 3), dtype="u1")
v[0] = [1, 0, 0]
v[1] = [0, 0, 0]
add("V3", np.frombuffer(v.tobytes(), dtype="V3").reshape(2, 3))
add("S4", np.array([b"", b"ab", b"abcd", b"a\x00b", b"\xff\x00\x01", b"zz"], dtype="S4").reshape(3, 2))

# datetimes and timedeltas in several units, with NaT
add("M8_ns", np.array(["1970-01-01T00:00:00.000000001", "NaT", "2262-04-11T23:47:16.854775807",
                       "1677-09-21T00:12:43.145224193", "2024-02-29T12:00:00"], dtype="M8[ns]"))
add("M8_D", np.array(["2000-01-01", "NaT", "1900-03-01", "2100-12-31", "0001-01-01", "9999-12-31"],
                     dtype="M8[D]").reshape(2, 3))
add("M8_10s", np.array(["2020-01-01T00:00:00", "NaT", "1960-06-01T12:00:10"], dtype="M8[10s]"))
add("M8_Y", np.array(["1970", "2024", "NaT", "1000"], dtype="M8[Y]"))
add("m8_us", np.array([0, -1, 2 ** 63 - 1, -(2 ** 63) + 1], dtype="i8").view("m8[us]").copy())
m8h = np.array([5, 0, -3, 2 ** 40], dtype="i8").view("m8[h]").copy()
m8h[1] = np.timedelta64("NaT")
add("m8_h", m8h.reshape(2, 2))

# layouts
add("zero_d", np.array(3.5, dtype="<f8"))
add("zero_len", np.zeros((0,), dtype="<i2"))
add("zero_len_2d", np.zeros((3, 0), dtype="<u4"))
add("fortran_3d", np.asfortranarray(np.arange(2 * 3 * 4, dtype="<i2").reshape(2, 3, 4) * 3 - 20))
add("nd1", np.arange(11, dtype="<i2") - 5)
add("nd2", (np.arange(5 * 7, dtype="<i2") * 7).reshape(5, 7))
add("nd3", (np.arange(3 * 5 * 4, dtype="<i2") - 30).reshape(3, 5, 4))
add("nd4", np.arange(2 * 3 * 5 * 3, dtype="<i2").reshape(2, 3, 5, 3))
add("nd5", (np.arange(2 * 3 * 1 * 4 * 3, dtype="<i2") * 11).reshape(2, 3, 1, 4, 3))

out_dir = sys.argv[1]
manifest = []
for name, a in cases.items():
    file = os.path.join(out_dir, name + ".npy")
    np.save(file, a)
    manifest.append({
        "name": name,
        "file": file,
        "shape": list(a.shape),
        "kind": a.dtype.kind,
        "itemsize": a.dtype.itemsize,
        "expected": {"shape": list(a.shape), "data_type": zarr_data_type(a.dtype), "values": canonical_values(a)},
    })
json.dump(manifest, sys.stdout)
