// Transparent huge pages for fresh memory, asked for through glibc's malloc tunable
// (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`: glibc then madvises its mmap'd blocks with
// MADV_HUGEPAGE, and Node's ArrayBuffers of that size are such blocks). glibc reads the
// tunable when the process starts, so every measurement here is of child processes, with
// and without it, taking turns.
//
// Each way is timed in several states of the memory it gets: new processes started back
// to back (the memory the last one freed is handed out again at once) or after `pause`
// seconds idle, and within one process that frees a first result and allocates the next
// at once or after the pause (a library reading again). On a VM with free page reporting
// (virtio-balloon; Linux reports free blocks of 2^page_reporting_order pages to the host
// ~2 s after they are freed) the host takes back the large free blocks, and a huge page
// is carved from one of them: the host then has to fault it in and zero it again, where
// 4 KiB pages come mostly from smaller free blocks the host never took. A pause is how a
// user's one-off `zarr get` finds the machine.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { NODE } from "./common.mjs";
import { rusage, spread } from "./measure.mjs";

const TUNABLE = "glibc.malloc.hugetlb=1";

/** The bracketed choice of a /sys/kernel/mm/transparent_hugepage file ("madvise"), or null. */
function thpSetting(name) {
  try {
    return readFileSync(`/sys/kernel/mm/transparent_hugepage/${name}`, "utf8").match(/\[([^\]]+)\]/)?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * What decides whether the tunable can work here: `{ glibc, enabled, defrag, reportingOrder,
 * usable, why }` (glibc: the runtime version, or null off glibc; reportingOrder: the
 * kernel's page_reporting_order when set on its command line).
 */
export function hugePageMachine() {
  const glibc = process.platform === "linux" ? (process.report.getReport().header.glibcVersionRuntime ?? null) : null;
  const enabled = thpSetting("enabled");
  const defrag = thpSetting("defrag");
  let reportingOrder = null;
  try {
    reportingOrder = readFileSync("/proc/cmdline", "utf8").match(/page_reporting\.page_reporting_order=(\d+)/)?.[1] ?? null;
  } catch {}
  const [major, minor] = (glibc ?? "0.0").split(".").map(Number);
  const why =
    glibc === null
      ? "not Linux with glibc"
      : major < 2 || (major === 2 && minor < 35)
        ? `glibc ${glibc} has no glibc.malloc.hugetlb (2.35 and later)`
        : enabled !== "always" && enabled !== "madvise"
          ? `transparent huge pages are ${enabled ?? "unavailable"}`
          : null;
  return { glibc, enabled, defrag, reportingOrder, usable: why === null, why };
}

/** The environment of a child: without the tunable (and without any the user set), or with it alone. */
function childEnv(huge) {
  const env = { ...process.env };
  delete env.GLIBC_TUNABLES;
  if (huge) env.GLIBC_TUNABLES = TUNABLE;
  return env;
}

/** The same as `env` arguments for a command run through bench/lib/rusage.py. */
const envArgs = (huge) => (huge ? [`GLIBC_TUNABLES=${TUNABLE}`] : ["-u", "GLIBC_TUNABLES"]);

// argv: bytes, and the milliseconds to idle between freeing a first such array and timing
// the second (-1: time the first, in a process that has freed nothing yet).
const touchScript = `
import { readFileSync } from "node:fs";
const [bytes, gap] = process.argv.slice(1).map(Number);
const proc = (field) => readFileSync("/proc/self/" + field, "utf8");
const rss = () => Number(proc("statm").split(" ")[1]) * 4096;
function touch() {
  const a = new Float32Array(bytes / 4);
  for (let i = 0; i < a.length; i += 1024) a[i] = 1;
  return a;
}
/** RSS with a touched array alive (it dies when this returns). */
const touchedRss = () => touch().length * 0 + rss();
if (gap >= 0) {
  // V8 hands a dead ArrayBuffer's memory back after a collection, on a later turn.
  const peak = touchedRss();
  for (let k = 0; peak - rss() < bytes / 2; k++) {
    if (k === 100) throw new Error("the first array was not freed");
    gc();
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, gap));
}
const r0 = process.resourceUsage();
const t = performance.now();
const kept = touch();
const ms = performance.now() - t;
const r1 = process.resourceUsage();
const huge = kept.length > 0 && Number(proc("smaps_rollup").match(/AnonHugePages:\\s+(\\d+)/)?.[1] ?? 0) * 1024;
console.log(JSON.stringify({ ms, faults: r1.minorPageFault - r0.minorPageFault, systemMs: (r1.systemCPUTime - r0.systemCPUTime) / 1000, huge }));
`;

/**
 * One child touching every 4 KiB page of a fresh `bytes`-byte Float32Array: `{ ms, faults,
 * systemMs, huge }`; with `gap` (seconds), after freeing a first one and idling that long.
 */
function touchOnce(bytes, huge, gap) {
  const argv = ["--expose-gc", "--input-type=module", "-e", touchScript, "--", String(bytes), String(gap === null ? -1 : gap * 1000)];
  const r = spawnSync(NODE, argv, { encoding: "utf8", env: childEnv(huge) });
  if (r.status !== 0) {
    const lines = r.stderr.trim().split("\n");
    throw new Error(`huge-pages child failed: ${lines.find((l) => /Error/.test(l)) ?? lines.pop()}`);
  }
  return JSON.parse(r.stdout);
}

/** One whole process `command args` under bench/lib/rusage.py: `{ ms, cpuMs, systemMs, faults }`. */
function processOnce(command, args, huge) {
  const r = rusage("env", [...envArgs(huge), command, ...args]);
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${r.stderr.trim().split("\n").pop()}`);
  return { ms: r.seconds * 1000, cpuMs: (r.userSeconds + r.systemSeconds) * 1000, systemMs: r.systemSeconds * 1000, faults: r.minorFaults };
}

/**
 * `runs` pairs of `once(huge)`, without and with the tunable, the order swapped every pair
 * (so neither always follows the other), each preceded by `pause` seconds of idling.
 * Returns `{ off: [samples], on: [samples] }`.
 */
async function takeTurns(runs, pause, once) {
  const samples = { off: [], on: [] };
  for (let i = 0; i < runs; i++) {
    for (const huge of i % 2 ? [true, false] : [false, true]) {
      if (pause > 0) await sleep(pause * 1000);
      samples[huge ? "on" : "off"].push(once(huge));
    }
  }
  return samples;
}

/**
 * The memory states of whole processes: started back to back, and after `pause` seconds
 * idle (when above 0).
 */
const processStates = (pause) => [
  { label: "new process, back to back", pause: 0, gap: null },
  ...(pause > 0 ? [{ label: `new process, after ${pause} s idle`, pause, gap: null }] : []),
];

/** ... and within one process, which frees a first result and allocates the next at once or after `pause` seconds. */
const reuseStates = (pause) => [
  { label: "same process, at once", pause: 0, gap: 0 },
  ...(pause > 0 ? [{ label: `same process, after ${pause} s idle`, pause: 0, gap: pause }] : []),
];

/**
 * Touching every page of a fresh `bytes`-byte Float32Array, `runs` times each way per
 * memory state (whole processes and reuse within one): `[{ state, huge, ms: spread,
 * systemMs: spread, faults: spread, hugeBytes: spread }]`.
 */
export async function pageTouchRuns({ bytes, runs, pause }) {
  const rows = [];
  for (const { label, pause: p, gap } of [...processStates(pause), ...reuseStates(pause)]) {
    const samples = await takeTurns(runs, p, (huge) => touchOnce(bytes, huge, gap));
    for (const [key, xs] of Object.entries(samples)) {
      const of = (name) => spread(xs.map((x) => x[name]));
      rows.push({ state: label, huge: key === "on", ms: of("ms"), systemMs: of("systemMs"), faults: of("faults"), hugeBytes: of("huge") });
    }
  }
  return rows;
}

/**
 * A whole process (`command args`), `runs` times each way per memory state:
 * `[{ state, huge, ms: spread, cpuMs: spread, systemMs: spread, faults: spread }]`.
 */
export async function processRuns({ command, args, runs, pause }) {
  const rows = [];
  for (const { label, pause: p } of processStates(pause)) {
    const samples = await takeTurns(runs, p, (huge) => processOnce(command, args, huge));
    for (const [key, xs] of Object.entries(samples)) {
      const of = (name) => spread(xs.map((x) => x[name]));
      rows.push({ state: label, huge: key === "on", ms: of("ms"), cpuMs: of("cpuMs"), systemMs: of("systemMs"), faults: of("faults") });
    }
  }
  return rows;
}
