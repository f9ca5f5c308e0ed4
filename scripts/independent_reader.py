"""An independent Zarr v3 reader, written from the spec with json + numpy only.

It shares no code with the TypeScript implementation and serves as a second opinion
in the CLI's tests. Supported: codecs `bytes` (either endian) and `transpose`, and the
compressors zstd, gzip, zlib, blosc, lz4, bz2 and lzma decoded by numcodecs' C libraries,
numcodecs.shuffle/adler32/crc32 and the dtype-preserving filters numcodecs.delta, bitround and
quantize (through numcodecs), and crc32c (verified here); chunk
grids `regular` and `rectilinear` (inline, with [edge, count] runs); chunk key
encodings `default` and `v2`; fill values as the spec writes them (numbers, "NaN",
"Infinity", "-Infinity", "0x..." raw bits, [re, im], byte lists, strings, "NaT"); data
types bool, int8..int64, uint8..uint64, float16/32/64, complex64/128, r<N>,
fixed_length_utf32, numpy.datetime64 / numpy.timedelta64.

Usage:
    python3 independent_reader.py STORE PATH      prints the canonical JSON of one array
    python3 independent_reader.py --batch         reads [[store, path], ...] on stdin,
                                                   prints a JSON list (an error object
                                                   {"error": "..."} for arrays it cannot read)

Canonical JSON: {"shape", "data_type", "values"}, values flattened in C order: bools
as true/false; integers and datetimes as decimal strings; floats as numbers or
"NaN"/"Infinity"/"-Infinity"; complex as [re, im]; raw bytes as lowercase hex without
trailing NULs; strings as strings.
"""

import base64
import itertools
import json
import math
import os
import sys

import numpy as np


class Unsupported(Exception):
    pass


INT_TYPES = {
    "bool": "?",
    "int8": "i1", "int16": "i2", "int32": "i4", "int64": "i8",
    "uint8": "u1", "uint16": "u2", "uint32": "u4", "uint64": "u8",
    "float16": "f2", "float32": "f4", "float64": "f8",
    "complex64": "c8", "complex128": "c16",
}


def numpy_dtype(data_type):
    """The numpy dtype (without byte order) of a Zarr v3 data type definition."""
    if isinstance(data_type, str):
        name, config = data_type, {}
    else:
        name, config = data_type["name"], data_type.get("configuration", {})
    if name in INT_TYPES:
        return np.dtype(INT_TYPES[name])
    if name.startswith("r") and name[1:].isdigit():
        bits = int(name[1:])
        if bits == 0 or bits % 8:
            raise Unsupported("bad raw type " + name)
        return np.dtype("V%d" % (bits // 8))
    if name == "fixed_length_utf32":
        return np.dtype("U%d" % (config["length_bytes"] // 4))
    if name in ("numpy.datetime64", "numpy.timedelta64", "datetime64", "timedelta64"):
        letter = "M" if "datetime" in name else "m"
        unit = config["unit"]
        scale = config.get("scale_factor", 1)
        if unit == "generic":
            return np.dtype(letter + "8")
        return np.dtype("%s8[%s%s]" % (letter, "" if scale == 1 else scale, unit))
    raise Unsupported("data type " + json.dumps(data_type))


def float_from_json(value, dtype):
    if isinstance(value, str):
        if value == "NaN":
            return dtype.type(float("nan"))
        if value == "Infinity":
            return dtype.type(float("inf"))
        if value == "-Infinity":
            return dtype.type(float("-inf"))
        if value.startswith("0x"):
            raw = int(value, 16).to_bytes(dtype.itemsize, "big")
            return np.frombuffer(raw, dtype=dtype.newbyteorder(">"))[0].astype(dtype)
        raise Unsupported("float fill value " + value)
    return dtype.type(value)


def fill_value(value, dtype):
    """The fill value as a 0-d array of `dtype`."""
    out = np.zeros((), dtype=dtype)
    kind = dtype.kind
    if kind == "b":
        out[()] = bool(value)
    elif kind in "iu":
        out[()] = int(value)
    elif kind == "f":
        out[()] = float_from_json(value, dtype)
    elif kind == "c":
        part = np.dtype("f%d" % (dtype.itemsize // 2))
        out[()] = complex(float_from_json(value[0], part), float_from_json(value[1], part))
    elif kind == "V":
        raw = bytes(value) if isinstance(value, list) else base64.b64decode(value)
        if len(raw) != dtype.itemsize:
            raise Unsupported("raw fill value of the wrong size")
        out = np.frombuffer(raw, dtype=dtype).reshape(())
    elif kind == "U":
        out[()] = value
    elif kind in "Mm":
        count = -(2 ** 63) if value == "NaT" else int(value)
        out = np.array(count, dtype="i8").view(dtype)
    else:
        raise Unsupported("fill value for " + str(dtype))
    return out


def dimension_edges(spec, length):
    """The chunk edge lengths along one dimension (a regular size, or an edge list with runs)."""
    if isinstance(spec, int):
        count = math.ceil(length / spec)
        return [spec] * count, True
    edges = []
    for item in spec:
        if isinstance(item, list):
            edges.extend([item[0]] * item[1])
        else:
            edges.append(item)
    if sum(edges) != length:
        raise Unsupported("rectilinear edges do not add up to the array length")
    return edges, False


def grid_edges(grid, shape):
    name = grid["name"]
    config = grid.get("configuration", {})
    if name == "regular":
        return [dimension_edges(c, n)[0] for c, n in zip(config["chunk_shape"], shape)]
    if name == "rectilinear":
        if config.get("kind") != "inline":
            raise Unsupported("rectilinear kind")
        return [dimension_edges(c, n)[0] for c, n in zip(config["chunk_shapes"], shape)]
    raise Unsupported("chunk grid " + name)


def chunk_key(encoding, coords):
    name = encoding["name"]
    config = encoding.get("configuration", {})
    if name == "default":
        sep = config.get("separator", "/")
        return "c" + "".join(sep + str(c) for c in coords)
    if name == "v2":
        sep = config.get("separator", ".")
        return sep.join(str(c) for c in coords) if coords else "0"
    raise Unsupported("chunk key encoding " + name)


_CRC32C_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC32C_TABLE.append(_c)


def crc32c_strip(data):
    """The crc32c codec: verify the trailing little-endian CRC-32C and drop it."""
    crc = 0xFFFFFFFF
    for b in data[:-4]:
        crc = _CRC32C_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    if (crc ^ 0xFFFFFFFF) != int.from_bytes(data[-4:], "little"):
        raise Unsupported("crc32c mismatch")
    return data[:-4]


def bytes_decoder(name, config):
    """A bytes→bytes decoder from numcodecs' C libraries (libzstd, zlib, c-blosc, ...)."""
    import numcodecs
    import numcodecs.blosc

    short = name[len("numcodecs."):] if name.startswith("numcodecs.") else name
    if short == "crc32c":
        return crc32c_strip
    if short in ("shuffle", "adler32", "crc32"):
        return numcodecs.get_codec(dict(config, id=short)).decode
    if short == "zstd":
        return numcodecs.Zstd().decode
    if short == "gzip":
        return numcodecs.GZip().decode
    if short == "zlib":
        return numcodecs.Zlib().decode
    if short == "blosc":
        return numcodecs.blosc.decompress
    if short == "lz4":
        return numcodecs.LZ4().decode
    if short == "bz2":
        return numcodecs.BZ2().decode
    if short == "lzma":
        return numcodecs.LZMA().decode
    raise Unsupported("codec " + name)


def parse_codecs(codecs, ndim):
    """(transpose orders, bytes endian, bytes→bytes decoders) for transposes, bytes, compressors."""
    orders = []
    endian = None
    decoders = []
    seen_bytes = False
    for codec in codecs:
        if isinstance(codec, str):
            codec = {"name": codec}
        name = codec["name"]
        config = codec.get("configuration", {})
        if name == "transpose" and not seen_bytes:
            order = config["order"]
            if sorted(order) != list(range(ndim)):
                raise Unsupported("transpose order")
            orders.append(order)
        elif name in ("numcodecs.delta", "numcodecs.bitround", "numcodecs.quantize") and not seen_bytes:
            import numcodecs

            if config.get("astype", config.get("dtype")) != config.get("dtype"):
                raise Unsupported(name + " with astype")
            orders.append(numcodecs.get_codec(dict(config, id=name[len("numcodecs."):])))
        elif name == "bytes" and not seen_bytes:
            seen_bytes = True
            endian = config.get("endian", "little")
        elif seen_bytes:
            decoders.append(bytes_decoder(name, config))
        else:
            raise Unsupported("codec " + name)
    if not seen_bytes:
        raise Unsupported("no bytes codec")
    return orders, endian, decoders


def read_array(store, path):
    node = os.path.join(store, *[p for p in path.split("/") if p])
    with open(os.path.join(node, "zarr.json"), "rb") as f:
        meta = json.loads(f.read().decode("utf-8"))
    if meta.get("zarr_format") != 3 or meta.get("node_type") != "array":
        raise Unsupported("not a Zarr v3 array")
    shape = tuple(meta["shape"])
    ndim = len(shape)
    dtype = numpy_dtype(meta["data_type"])
    orders, endian, decoders = parse_codecs(meta["codecs"], ndim)
    stored_dtype = dtype.newbyteorder("<" if endian == "little" else ">") if dtype.kind not in "bV" else dtype
    edges = grid_edges(meta["chunk_grid"], shape)
    out = np.empty(shape, dtype=dtype)
    out[...] = fill_value(meta["fill_value"], dtype)
    for coords in itertools.product(*[range(len(e)) for e in edges]):
        key = os.path.join(node, *chunk_key(meta["chunk_key_encoding"], coords).split("/"))
        if not os.path.isfile(key):
            continue
        starts = [sum(e[:c]) for e, c in zip(edges, coords)]
        chunk_shape = [e[c] for e, c in zip(edges, coords)]
        encoded_shape = list(chunk_shape)
        for order in orders:
            if isinstance(order, list):
                encoded_shape = [encoded_shape[i] for i in order]
        with open(key, "rb") as f:
            raw = f.read()
        for decode in reversed(decoders):
            raw = bytes(decode(raw))
        count = int(np.prod(encoded_shape)) if encoded_shape else 1
        if len(raw) != count * dtype.itemsize:
            raise Unsupported("chunk %s has %d bytes, expected %d" % (key, len(raw), count * dtype.itemsize))
        chunk = np.frombuffer(raw, dtype=stored_dtype).reshape(encoded_shape)
        for order in reversed(orders):
            if isinstance(order, list):
                chunk = chunk.transpose(np.argsort(order))
            else:  # a numcodecs filter over the flattened chunk
                chunk = np.asarray(order.decode(np.ascontiguousarray(chunk))).reshape(chunk.shape)
        chunk = chunk.astype(dtype) if stored_dtype != dtype else chunk
        region = tuple(slice(s, min(s + c, n)) for s, c, n in zip(starts, chunk_shape, shape))
        trim = tuple(slice(0, r.stop - r.start) for r in region)
        out[region] = chunk[trim]
    return out, meta["data_type"]


def canonical_float(x):
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def canonical_values(a):
    """The canonical JSON values of a numpy array, flattened in C order."""
    flat = np.ascontiguousarray(a).reshape(-1)
    kind = a.dtype.kind
    if kind == "b":
        return [bool(x) for x in flat]
    if kind in "iu":
        return [str(int(x)) for x in flat]
    if kind in "Mm":
        return [str(int(x)) for x in flat.view(np.dtype("i8").newbyteorder(flat.dtype.byteorder))]
    if kind == "f":
        return [canonical_float(x) for x in flat]
    if kind == "c":
        return [[canonical_float(x.real), canonical_float(x.imag)] for x in flat]
    if kind in "VS":
        return [bytes(x.tobytes()).rstrip(b"\0").hex() for x in flat]
    if kind == "U":
        return [str(x) for x in flat]
    raise Unsupported("canonical form of " + str(a.dtype))


def canonical(a, data_type):
    return {"shape": list(a.shape), "data_type": data_type, "values": canonical_values(a)}


def main(argv):
    if argv[1:] == ["--batch"]:
        results = []
        for store, path in json.load(sys.stdin):
            try:
                a, dt = read_array(store, path)
                results.append(canonical(a, dt))
            except Unsupported as e:
                results.append({"error": str(e)})
        json.dump(results, sys.stdout)
        return 0
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    a, dt = read_array(argv[1], argv[2])
    json.dump(canonical(a, dt), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
