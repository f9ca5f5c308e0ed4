"""Datasets written by xarray, and xarray's decoded view of a store, for the interop tests.

  xarray_peer.py write DIR   writes the datasets below into DIR (one .zarr each)
  xarray_peer.py dump PATH   prints xarray.open_zarr(PATH).load() as JSON
  xarray_peer.py calendars   prints cftime.num2date of many day counts in every calendar
"""
import datetime
import json
import math
import sys
import warnings

import cftime
import numpy as np
import xarray as xr

warnings.simplefilter("ignore")


def write(out):
    # 1. Packed int16 with scale/offset and _FillValue; packed without a fill value; a float with missing_value.
    t = np.array([[280.15, 281.5, np.nan], [250.0, 300.25, 299.99]])
    ds = xr.Dataset(
        {
            "t2m": (("y", "x"), t, {"units": "K", "long_name": "2 m temperature"}),
            "sp": (("y", "x"), np.array([[1000.5, 1013.2, 990.0], [1020.1, 1001.0, 999.9]]), {"units": "hPa"}),
            "rain": (("y", "x"), np.array([[0.5, -999.0, 1.25], [2.0, 0.0, -999.0]], dtype="f4"), {"missing_value": np.float32(-999.0)}),
        },
        coords={"y": [10.0, 20.0], "x": [1, 2, 3]},
        attrs={"title": "packed"},
    )
    ds.t2m.encoding = {"dtype": "int16", "scale_factor": 0.01, "add_offset": 273.15, "_FillValue": -32767}
    ds.sp.encoding = {"dtype": "int16", "scale_factor": 0.1, "add_offset": 1000.0}
    ds.to_zarr(f"{out}/packed.zarr", mode="w")

    # 2. Times in five calendars (standard crosses 1582-10-15; hours since with a time of day).
    def var(values, dtype, units, calendar):
        return xr.Variable(("n",), np.array(values, dtype=dtype), {"units": units, "calendar": calendar})

    ds = xr.Dataset(
        {
            "standard": var([0, 1, 31, 59, 60, 29000, 30000, 182620], "i8", "days since 1500-02-27", "standard"),
            "modern": var([0, 1, 59, 60, 366, 10000, -1, 36524], "i8", "days since 2000-01-01", "gregorian"),
            "noleap": var([0, 1, 2, 365, 730, -1, 59, 10000], "i8", "days since 2000-02-27", "noleap"),
            "d360": var([0, 1, 2, 3, 360, -1, 29.5, 3600], "f8", "days since 2000-02-28", "360_day"),
            "julian": var([0, 1, 2, 100, 1000, -1, 366, 73000], "i8", "days since 1900-02-28", "julian"),
            "hours": var([0, 1.5, 25, -48, 1e6, 0.25, 8760, 99], "f8", "hours since 1970-01-01 06:00:00", "proleptic_gregorian"),
        }
    )
    ds.to_zarr(f"{out}/times.zarr", mode="w", consolidated=False)

    # 3. String coordinates: fixed-width unicode (<U), bytes (|S) and variable-length (vlen-utf8).
    ds = xr.Dataset(
        {"pop": (("city",), np.array([2.1, 8.9, 0.7])), "capital": (("city",), np.array([True, False, False]))},
        coords={
            "city": np.array(["Paris", "Zürich", "Ōsaka"]),
            "code": ("city", np.array([b"PAR", b"ZRH", b"KIX"])),
            "name": ("city", np.array(["Paris", "Zürich, Stadt", "大阪"], dtype=object)),
        },
    )
    ds.name.encoding = {"dtype": str}
    ds.to_zarr(f"{out}/strings.zarr", mode="w")

    # 4. 2-D lat/lon named by a `coordinates` attribute.
    lat = np.array([[50.0, 50.0, 50.0], [51.0, 51.0, 51.0]])
    lon = np.array([[4.0, 5.0, 6.0], [4.0, 5.0, 6.0]])
    ds = xr.Dataset(
        {"tas": (("y", "x"), np.arange(6, dtype="f4").reshape(2, 3), {"units": "K"})},
        coords={"lat": (("y", "x"), lat, {"units": "degrees_north"}), "lon": (("y", "x"), lon, {"units": "degrees_east"})},
    )
    ds.to_zarr(f"{out}/curvilinear.zarr", mode="w")


def value(v):
    if isinstance(v, cftime.datetime):
        return {"year": v.year, "month": v.month, "day": v.day, "hour": v.hour, "minute": v.minute, "second": v.second, "microsecond": v.microsecond}
    if isinstance(v, np.datetime64):
        if np.isnat(v):
            return None
        return str(v.astype("datetime64[us]"))
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if isinstance(v, (float, np.floating)):
        return None if math.isnan(v) else float(v)
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, np.str_):
        return str(v)
    return v


def dump(path):
    ds = xr.open_zarr(path).load()
    out = {"dims": {k: int(v) for k, v in ds.dims.items()}, "coords": sorted(ds.coords), "data_vars": sorted(ds.data_vars), "attrs": ds.attrs, "variables": {}}
    for name, var in ds.variables.items():
        out["variables"][name] = {
            "dims": list(var.dims),
            "dtype": str(var.dtype),
            "values": [value(v) for v in var.values.ravel().tolist()] if var.dtype.kind not in "M" else [value(v) for v in var.values.ravel()],
            "attrs": {k: (v.item() if hasattr(v, "item") else v) for k, v in var.attrs.items()},
        }
    print(json.dumps(out, default=str))




def calendars(_):
    """cftime.num2date of a spread of day counts in every calendar, as date parts."""
    values = [-800000, -700000.25, -400000, -146097, -1, 0, 0.5, 1, 59, 60, 365, 366, 1461, 36524, 146097, 1000000.75, 2900000]
    refs = ["0001-01-01", "1582-10-04", "1582-10-15", "1900-02-28 12:00:00", "2000-03-01"]
    out = []
    for calendar in ["standard", "gregorian", "proleptic_gregorian", "julian", "noleap", "365_day", "all_leap", "366_day", "360_day"]:
        for ref in refs:
            units = f"days since {ref}"
            dates = cftime.num2date(values, units, calendar=calendar, only_use_cftime_datetimes=True)
            out.append({"calendar": calendar, "units": units, "values": values, "dates": [value(d) for d in dates]})
            hours = [v * 24 for v in values]
            dates = cftime.num2date(hours, f"hours since {ref}", calendar=calendar, only_use_cftime_datetimes=True)
            out.append({"calendar": calendar, "units": f"hours since {ref}", "values": hours, "dates": [value(d) for d in dates]})
    print(json.dumps(out))


if __name__ == "__main__":
    {"write": write, "dump": dump, "calendars": calendars}[sys.argv[1]](sys.argv[2] if len(sys.argv) > 2 else None)
