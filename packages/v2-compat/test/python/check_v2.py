"""Reads every array of the matrix (stdin: {"arrays": {path: expected}, "attributes": ...})
from the Zarr v2 store argv[1] with zarr-python and reports mismatches; with argv[2] (the
store zarr-python wrote), also compares each array's dtype, chunks, order, compressor,
filters and fill value with the original's."""
import json
import sys

import numpy as np

import zarr

from canonical import array as canonical

m = json.load(sys.stdin)
root = zarr.open_group(zarr.DirectoryStore(sys.argv[1]), mode="r")
original = zarr.open_group(zarr.DirectoryStore(sys.argv[2]), mode="r") if len(sys.argv) > 2 else None


def same_fill(a, b):
    if a is None or b is None:
        return a is None and b is None
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()

mismatches = []
for path, expected in m["arrays"].items():
    try:
        z = root[path]
        got = canonical(z[...])
        if got != expected:
            bad = [i for i, (a, b) in enumerate(zip(got["values"], expected["values"])) if a != b][:3]
            mismatches.append(f"{path}: shape {got['shape']} vs {expected['shape']}, first differences at {bad}: "
                              f"{[got['values'][i] for i in bad]} vs {[expected['values'][i] for i in bad]}")
        if original is not None:
            o = original[path]
            for field in ["dtype", "chunks", "order", "compressor", "filters", "shape"]:
                if getattr(z, field) != getattr(o, field):
                    mismatches.append(f"{path}: {field} {getattr(z, field)} vs {getattr(o, field)}")
            if not same_fill(z.fill_value, o.fill_value):
                mismatches.append(f"{path}: fill_value {z.fill_value!r} vs {o.fill_value!r}")
        attrs = dict(z.attrs)
        if attrs != m["attributes"][path]:
            mismatches.append(f"{path}: attributes {attrs} vs {m['attributes'][path]}")
    except Exception as e:  # noqa: BLE001 - reported to the test
        mismatches.append(f"{path}: {type(e).__name__}: {e}")
if dict(root.attrs) != m["attributes"][""]:
    mismatches.append(f"root attributes {dict(root.attrs)}")
json.dump({"mismatches": mismatches, "checked": len(m["arrays"])}, sys.stdout)
