/**
 * Runs reference work in Debian's Python (liblzma through the `lzma` module, and numcodecs
 * 0.11) in one batch per call, so tests spawn Python only a few times.
 */
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { execFileSync } from "node:child_process";

/** One job for Python: compress or decompress `data` with `lzma` keyword arguments. */
export interface PyJob {
  op: "compress" | "decompress" | "numcodecs_encode" | "numcodecs_decode";
  data: Uint8Array;
  /** Keyword arguments (`format`, `check`, `preset`, `filters`); filter id "LZMA1" means lzma.FILTER_LZMA1. */
  kwargs?: Record<string, unknown>;
}

const SCRIPT = `
import sys, json, base64, lzma
def fix(kw):
    kw = dict(kw)
    if kw.get("filters") is not None:
        kw["filters"] = [dict(f, id=lzma.FILTER_LZMA1 if f["id"] == "LZMA1" else f["id"]) for f in kw["filters"]]
    return kw
out = []
for job in json.load(sys.stdin):
    data = base64.b64decode(job["data"])
    kw = fix(job.get("kwargs", {}))
    try:
        if job["op"] == "compress":
            r = lzma.compress(data, **kw)
        elif job["op"] == "decompress":
            r = lzma.decompress(data, **kw)
        elif job["op"] == "numcodecs_encode":
            import numcodecs
            r = bytes(numcodecs.LZMA(**kw).encode(data))
        else:
            import numcodecs
            r = bytes(numcodecs.LZMA(**kw).decode(data))
        out.append({"ok": base64.b64encode(r).decode()})
    except Exception as e:
        out.append({"error": repr(e)})
json.dump(out, sys.stdout)
`;

/** Result of one job: the bytes, or Python's error text. */
export type PyResult = { ok: Uint8Array; error?: undefined } | { ok?: undefined; error: string };

/** Runs the jobs in one Python process. */
export function runPython(jobs: PyJob[]): PyResult[] {
  requirePythonZarr();
  const input = JSON.stringify(
    jobs.map((j) => ({ op: j.op, data: Buffer.from(j.data).toString("base64"), kwargs: j.kwargs ?? {} })),
  );
  const stdout = execFileSync("/usr/bin/python3", ["-c", SCRIPT], { input, maxBuffer: 1 << 30 });
  const results = JSON.parse(stdout.toString()) as Array<{ ok?: string; error?: string }>;
  return results.map((r) =>
    r.ok !== undefined ? { ok: new Uint8Array(Buffer.from(r.ok, "base64")) } : { error: String(r.error) },
  );
}

/** The bytes of a successful result (throws with Python's message otherwise). */
export function okBytes(result: PyResult): Uint8Array {
  if (result.ok === undefined) throw new Error(`python failed: ${result.error}`);
  return result.ok;
}
