"""Writes a Zarr v2 group into argv[1] with zarr-python 2.13: a readable int16 array "ok",
a pickle object array "pickled" and a mixed-endian structured array "mixed" (neither has
a Zarr v3 model), and a subgroup "sub" holding another readable array. With argv[2] ==
"consolidated", also writes .zmetadata."""
import sys

import numcodecs
import numpy as np
import zarr

root = zarr.open_group(sys.argv[1], mode="w")
root.array("ok", np.arange(4, dtype="<i2"), chunks=2)
root.array("pickled", np.array([1, "a", None, 2.5], dtype=object), object_codec=numcodecs.Pickle(), chunks=2)
mixed = np.zeros(3, dtype=np.dtype([("a", "<i4"), ("b", ">f8")]))
mixed["a"] = [1, 2, 3]
root.array("mixed", mixed, chunks=2)
root.create_group("sub").array("inner", np.arange(3, dtype="<f4"), chunks=3)
if len(sys.argv) > 2 and sys.argv[2] == "consolidated":
    zarr.consolidate_metadata(sys.argv[1])
