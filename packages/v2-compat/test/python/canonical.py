"""Canonical JSON of array values (the form of fixtures/README.md), computed with NumPy."""
import math

import numpy as np


def _float(x):
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def scalar(v, dt):
    """One element of dtype `dt` (possibly structured) in canonical form."""
    if dt.names is not None:
        out = {}
        for name in dt.names:
            fdt = dt.fields[name][0]
            fv = v[name]
            if fdt.subdtype is not None:
                base = fdt.subdtype[0]
                out[name] = [scalar(x, base) for x in np.asarray(fv).reshape(-1)]
            else:
                out[name] = scalar(fv, fdt)
        return out
    k = dt.kind
    if k == "b":
        return bool(v)
    if k in "iu":
        return str(int(v))
    if k in "mM":
        return str(int(np.asarray(v).view("i8")))
    if k == "f":
        return _float(v)
    if k == "c":
        return [_float(v.real), _float(v.imag)]
    if k == "S":
        return bytes(v).rstrip(b"\0").hex()
    if k == "V":
        return bytes(v).rstrip(b"\0").hex()
    if k == "U":
        return str(v).rstrip("\0")
    if k == "O":
        if isinstance(v, bytes):
            return v.hex()
        return v
    raise ValueError(f"unhandled dtype {dt}")


def array(a):
    a = np.asarray(a)
    flat = a.reshape(-1, order="C")
    return {"shape": list(a.shape), "values": [scalar(x, a.dtype) for x in flat]}
