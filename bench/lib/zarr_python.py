"""zarr-python 2.13 side of the bench scripts (run by Debian's /usr/bin/python3).

  zarr_python.py write PATH N C COMPRESSOR_JSON     write the bench array (Zarr v2)
  zarr_python.py time-read PATH REPS [SELECTION]    median seconds of z[SELECTION] (JSON)
  zarr_python.py read PATH                          read the whole array into memory (a process to time)
  zarr_python.py time-write PATH N C COMPRESSOR_JSON REPS
                                                    median seconds of writing the array (JSON)
  zarr_python.py write-hierarchy PATH GROUPS ARRAYS [consolidated]
                                                    a v2 hierarchy of GROUPS groups of ARRAYS
                                                    small arrays (10 float32, one chunk each)
  zarr_python.py tree PATH [consolidated]           print the hierarchy's tree (a process to time)
  zarr_python.py time-walk PATH REPS [consolidated] median seconds of visiting every node
                                                    (group.visititems) and how many (JSON)

The values are those of every bench script (bench/lib/data.mjs `benchValues`):
sin(i * 0.001) * 100 + (i % n) * 0.01 as float32, i the C-order element index.
"""
import json
import shutil
import sys
import time

import numcodecs
import numpy as np
import zarr


def values(n):
    i = np.arange(n * n, dtype=np.float64)
    return (np.sin(i * 0.001) * 100 + (i % n) * 0.01).astype("<f4").reshape(n, n)


def create(path, n, c, comp):
    return zarr.open_array(path, mode="w", shape=(n, n), chunks=(c, c), dtype="<f4", fill_value=0,
                           compressor=numcodecs.get_codec(comp) if comp else None)


def median(times):
    times.sort()
    return times[len(times) // 2]


def main(cmd, *args):
    if cmd == "write":
        path, n, c, comp = args[0], int(args[1]), int(args[2]), json.loads(args[3])
        create(path, n, c, comp)[:] = values(n)
    elif cmd == "read":
        a = zarr.open_array(args[0], mode="r")[:]
        assert a.size > 0
    elif cmd == "time-read":
        z = zarr.open_array(args[0], mode="r")
        sel = eval("np.s_[%s]" % (args[2] if len(args) > 2 else ":"))  # a NumPy selection from our own scripts
        z[sel]  # warm-up
        times = []
        for _ in range(int(args[1])):
            t0 = time.perf_counter()
            z[sel]
            times.append(time.perf_counter() - t0)
        print(json.dumps(median(times)))
    elif cmd == "time-write":
        path, n, c, comp, reps = args[0], int(args[1]), int(args[2]), json.loads(args[3]), int(args[4])
        data = values(n)
        times = []
        for _ in range(reps):
            shutil.rmtree(path, ignore_errors=True)
            t0 = time.perf_counter()
            create(path, n, c, comp)[:] = data
            times.append(time.perf_counter() - t0)
        shutil.rmtree(path, ignore_errors=True)
        print(json.dumps(median(times)))
    elif cmd == "write-hierarchy":
        path, groups, arrays = args[0], int(args[1]), int(args[2])
        root = zarr.open_group(path, mode="w")
        data = np.arange(10, dtype="<f4")
        for g in range(groups):
            group = root.create_group("g%03d" % g)
            for a in range(arrays):
                group.array("a%03d" % a, data, chunks=(10,))
        if args[3:] == ("consolidated",):
            zarr.consolidate_metadata(path)
    elif cmd == "tree":
        print(open_hierarchy(args[0], args[1:] == ("consolidated",)).tree())
    elif cmd == "time-walk":
        consolidated = args[2:] == ("consolidated",)
        times = []
        for _ in range(int(args[1]) + 1):  # the first is a warm-up
            t0 = time.perf_counter()
            nodes = []
            open_hierarchy(args[0], consolidated).visititems(lambda name, node: nodes.append(node))
            times.append(time.perf_counter() - t0)
        print(json.dumps({"seconds": median(times[1:]), "nodes": len(nodes)}))
    else:
        raise SystemExit("unknown command %r" % cmd)


def open_hierarchy(path, consolidated):
    return zarr.open_consolidated(path, mode="r") if consolidated else zarr.open_group(path, mode="r")


if __name__ == "__main__":
    main(*sys.argv[1:])
