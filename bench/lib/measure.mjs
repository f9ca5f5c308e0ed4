// Timing: contenders taking turns (so background load hits them alike), medians; whole
// processes timed from spawn to exit; peak RSS and page faults of a child process.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIB, PYTHON, pythonOnly } from "./common.mjs";

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** CPU milliseconds of `fn()` (user + system of this process). */
export function cpuMs(fn) {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** `{ mean, median, min, max, sd }` of samples (sd: the sample standard deviation, 0 for one sample). */
export function spread(xs) {
  const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1)) : 0;
  return { mean, median: median(xs), min: Math.min(...xs), max: Math.max(...xs), sd };
}

/** Seconds one call of `fn` takes. */
export async function timeIt(fn) {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

/**
 * Runs a command to completion and returns `{ seconds, status, stdout, stderr }`: wall time
 * from spawn to exit (the whole process: start-up, module loading, work, exit).
 */
export function runProcess(command, args, { env, input } = {}) {
  const t0 = performance.now();
  const r = spawnSync(command, args, {
    env: env ? { ...process.env, ...env } : process.env,
    input,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  const seconds = (performance.now() - t0) / 1000;
  if (r.error) throw r.error;
  return { seconds, status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** `runProcess` that throws (with the command and its stderr's tail) unless it exits 0; returns seconds. */
export function timeProcess(command, args, options) {
  const r = runProcess(command, args, options);
  if (r.status !== 0) throw new Error(`${[command, ...args].join(" ")} failed (${r.signal ?? `exit ${r.status}`}): ${tail(r.stderr)}`);
  return r.seconds;
}

export const tail = (text, lines = 3) => (text ?? "").trim().split("\n").slice(-lines).join(" | ");

/**
 * Times contenders `{ name: async () => seconds }` (each call returns the seconds it measured),
 * `reps` rounds in turn after `warmup` untimed rounds. A contender that throws is dropped with
 * its error. Returns `{ times: { name: median seconds }, errors: { name: message } }`.
 */
export async function race(contenders, { reps, warmup = 1 }) {
  const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  const errors = {};
  for (let r = -warmup; r < reps; r++) {
    for (const [name, fn] of Object.entries(contenders)) {
      if (name in errors) continue;
      try {
        const s = await fn();
        if (r >= 0) samples[name].push(s);
      } catch (error) {
        errors[name] = error.message;
        console.error(`bench: ${name} failed: ${error.message}`);
      }
    }
  }
  const times = {};
  for (const [name, xs] of Object.entries(samples)) if (!(name in errors) && xs.length) times[name] = median(xs);
  return { times, errors };
}

/** How child processes' resource use is measured: the Python wrapper, else GNU time, else null. */
export function rusageTool() {
  if (pythonOnly()) return "python3 resource.getrusage(RUSAGE_CHILDREN) (bench/lib/rusage.py)";
  if (existsSync("/usr/bin/time")) return "GNU time (/usr/bin/time)";
  return null;
}

/**
 * Runs a command and returns its `{ maxRss (bytes), minorFaults, majorFaults, seconds, userSeconds,
 * systemSeconds, status, stderr }` (seconds: wall time; the others: the child's CPU time).
 * Uses bench/lib/rusage.py (Python's getrusage of the child) when /usr/bin/python3 is there,
 * else GNU time; throws when neither is.
 */
export function rusage(command, args) {
  if (pythonOnly()) {
    const r = spawnSync(PYTHON, [join(LIB, "rusage.py"), command, ...args], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`rusage.py failed: ${tail(r.stderr)}`);
    const j = JSON.parse(r.stdout);
    return {
      maxRss: j.maxrss_kib * 1024,
      minorFaults: j.minflt,
      majorFaults: j.majflt,
      seconds: j.wall,
      userSeconds: j.utime,
      systemSeconds: j.stime,
      status: j.status,
      stderr: j.stderr,
    };
  }
  if (existsSync("/usr/bin/time")) {
    const dir = mkdtempSync(join(tmpdir(), "zarr-bench-time-"));
    try {
      const out = join(dir, "time");
      const t0 = performance.now();
      const r = spawnSync("/usr/bin/time", ["-q", "-o", out, "-f", "%M %R %F %x %U %S", command, ...args], {
        encoding: "utf8",
        stdio: ["ignore", "ignore", "pipe"],
      });
      const seconds = (performance.now() - t0) / 1000;
      const [maxKiB, minor, major, status, user, system] = readFileSync(out, "utf8").trim().split("\n").pop().split(" ").map(Number);
      return { maxRss: maxKiB * 1024, minorFaults: minor, majorFaults: major, seconds, userSeconds: user, systemSeconds: system, status: r.status ?? status, stderr: r.stderr };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  throw new Error("neither /usr/bin/python3 nor GNU time (/usr/bin/time; apt-get install time) is available");
}
