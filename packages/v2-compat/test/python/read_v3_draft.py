"""Reads arrays of an early-draft v3 hierarchy (argv[1]) with zarr-python 2.13's
experimental v3 API (ZARR_V3_EXPERIMENTAL_API=1); prints {path: flat list of values}."""
import json
import sys

import zarr

group = zarr.open_group(zarr.DirectoryStoreV3(sys.argv[1]), mode="r", zarr_version=3)
print(json.dumps({path: group[path][...].ravel().tolist() for path in sys.argv[2:]}))
