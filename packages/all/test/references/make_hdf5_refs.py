"""Test helper: NetCDF4/HDF5 files and their kerchunk references, from h5py's chunk index.

Writes into sys.argv[1]:
  data.nc      NetCDF4 (netCDF4-python): temp float32 (20, 30) in (8, 16) chunks, zlib level 4 +
               shuffle, _FillValue -999; counts int16 (100,) in (32,) chunks, uncompressed.
  data.h5      HDF5 (h5py): grid float64 (7, 9) in (4, 4) chunks, gzip + shuffle, one chunk never
               written (reads as the fill value 1.5).
  refs.json    version 0 references to both files (targets relative to the folder).
  refs-v1.json version 1: the same, with a template for each file name and the counts chunks made by gen.
  expected.json the values h5py reads, and what fsspec's ReferenceFileSystem + zarr-python read from
               refs.json and refs-v1.json.
"""
import base64, json, os, sys
import h5py, netCDF4, numpy as np

out = sys.argv[1]
nc = os.path.join(out, "data.nc")
h5 = os.path.join(out, "data.h5")

with netCDF4.Dataset(nc, "w") as d:
    d.createDimension("y", 20); d.createDimension("x", 30); d.createDimension("n", 100)
    t = d.createVariable("temp", "f4", ("y", "x"), zlib=True, complevel=4, shuffle=True, chunksizes=(8, 16), fill_value=-999.0)
    t[:] = (np.arange(600, dtype="f4").reshape(20, 30) * 0.25 - 40)
    t.units = "K"
    c = d.createVariable("counts", "i2", ("n",), chunksizes=(32,), contiguous=False)
    c[:] = np.arange(100, dtype="i2") * 3 - 50
with h5py.File(h5, "w") as f:
    g = f.create_dataset("grid", shape=(7, 9), dtype="f8", chunks=(4, 4), compression="gzip", compression_opts=6, shuffle=True, fillvalue=1.5)
    g[0:4, :] = np.arange(36, dtype="f8").reshape(4, 9) * 1.5
    g[4:7, 0:8] = -np.arange(24, dtype="f8").reshape(3, 8)  # chunk (1, 2) stays unwritten

def zarray(ds, fill):
    filters = []
    compressor = None
    if ds.shuffle:
        filters.append({"id": "shuffle", "elementsize": ds.dtype.itemsize})
    if ds.compression == "gzip":
        compressor = {"id": "zlib", "level": ds.compression_opts}
    return {"zarr_format": 2, "shape": list(ds.shape), "chunks": list(ds.chunks), "dtype": ds.dtype.str,
            "compressor": compressor, "filters": filters or None, "fill_value": fill, "order": "C"}

def chunk_refs(name, ds, file):
    refs = {}
    for i in range(ds.id.get_num_chunks()):
        info = ds.id.get_chunk_info(i)
        idx = [o // c for o, c in zip(info.chunk_offset, ds.chunks)]
        refs[name + "/" + ".".join(map(str, idx))] = [file, info.byte_offset, info.size]
    return refs

refs = {".zgroup": json.dumps({"zarr_format": 2})}
with h5py.File(nc, "r") as f:
    for name, dims, fill in [("temp", ["y", "x"], -999.0), ("counts", ["n"], None)]:
        ds = f[name]
        refs[name + "/.zarray"] = json.dumps(zarray(ds, fill))
        attrs = {"_ARRAY_DIMENSIONS": dims}
        if name == "temp":
            attrs["units"] = "K"
        refs[name + "/.zattrs"] = json.dumps(attrs)
        refs.update(chunk_refs(name, ds, "data.nc"))
    expected = {"temp": f["temp"][:].astype(float).tolist(), "counts": f["counts"][:].astype(int).tolist()}
with h5py.File(h5, "r") as f:
    ds = f["grid"]
    refs["grid/.zarray"] = json.dumps(zarray(ds, 1.5))
    refs["grid/.zattrs"] = json.dumps({"_ARRAY_DIMENSIONS": ["a", "b"]})
    refs.update(chunk_refs("grid", ds, "data.h5"))
    expected["grid"] = f["grid"][:].tolist()
# An inline chunk-less attribute document in base64, as kerchunk writes binary values.
refs[".zattrs"] = "base64:" + base64.b64encode(json.dumps({"title": "refs test"}).encode()).decode()
with open(os.path.join(out, "refs.json"), "w") as fh:
    json.dump(refs, fh)

# Version 1: templates for the files, and the counts chunks (each 64 bytes, uncompressed) made by gen.
counts = {k: v for k, v in refs.items() if k.startswith("counts/") and not k.startswith("counts/.")}
offsets = [counts["counts/%d" % i][1] for i in range(4)]
v1refs = {}
for k, v in refs.items():
    if k in counts:
        continue
    if isinstance(v, list):
        v1refs[k] = ["{{" + ("n" if v[0] == "data.nc" else "h") + "}}", v[1], v[2]]
    else:
        v1refs[k] = v
gen = []
if all(offsets[i] == offsets[0] + 64 * i for i in range(4)):
    gen.append({"key": "counts/{{i}}", "url": "{{n}}", "offset": "{{%d + i * 64}}" % offsets[0], "length": "64", "dimensions": {"i": {"stop": 4}}})
else:
    for i in range(4):
        v1refs["counts/%d" % i] = ["{{n}}", offsets[i], 64]
v1 = {"version": 1, "templates": {"n": "data.nc", "h": "data.h5"}, "refs": v1refs, "gen": gen}
with open(os.path.join(out, "refs-v1.json"), "w") as fh:
    json.dump(v1, fh)

# The independent reader: fsspec's ReferenceFileSystem with zarr-python 2.
import fsspec, zarr
os.chdir(out)
for doc in ["refs.json", "refs-v1.json"]:
    fs = fsspec.filesystem("reference", fo=os.path.join(out, doc), remote_protocol="file")
    root = zarr.open(fs.get_mapper(""), mode="r")
    read = {name: root[name][:].astype(float).tolist() for name in ["temp", "counts"]}
    # This fsspec (2022.11) fails on a reference set without a key for a chunk, which zarr asks
    # for: read the grid around its unwritten chunk (1, 2).
    read["grid_top"] = root["grid"][0:4, :].tolist()
    read["grid_bottom_left"] = root["grid"][4:7, 0:8].tolist()
    expected["fsspec:" + doc] = read
expected["gen_used"] = bool(gen)
with open(os.path.join(out, "expected.json"), "w") as fh:
    json.dump(expected, fh)
