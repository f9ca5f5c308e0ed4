"""Runs a command and prints its resource use as JSON (Linux getrusage of the waited child):
peak RSS (KiB), minor and major page faults, CPU and wall seconds, exit status and the
tail of its standard error. Its standard output goes to /dev/null.

  python3 rusage.py COMMAND [ARG...]
"""
import json
import resource
import subprocess
import sys
import time

t0 = time.perf_counter()
p = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.perf_counter() - t0
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({
    "status": p.returncode,
    "wall": wall,
    "maxrss_kib": r.ru_maxrss,
    "minflt": r.ru_minflt,
    "majflt": r.ru_majflt,
    "utime": r.ru_utime,
    "stime": r.ru_stime,
    "stderr": p.stderr.decode("utf8", "replace")[-2000:],
}))
