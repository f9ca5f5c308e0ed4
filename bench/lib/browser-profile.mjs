// Profiling a bench page's reads in Chromium (browser.mjs --profile): Chromium's trace with
// V8's sampling profiler on (every thread of the renderer, the pool's Web Workers included),
// summarised per thread as the self time of the functions sampled, and the renderer's page
// faults per thread (/proc/<pid>/task/<tid>/stat) over the same reads.
import { readdirSync, readFileSync } from "node:fs";

/** Trace categories: V8's sampling profiler and the renderer's task timeline. */
const CATEGORIES = ["disabled-by-default-v8.cpu_profiler", "v8", "devtools.timeline", "disabled-by-default-devtools.timeline"];

/**
 * Runs `read()` (resolving when the page's read is done) `rounds` times under a trace of
 * `page`, and resolves `{ threads, faults, wall }`: per renderer thread (by name), its
 * sampled milliseconds by function (`self`, the top `top` of them) and in all (`busy`),
 * and its minor page faults over the rounds (`faults`, by thread name).
 */
export async function profileReads(browser, page, read, { rounds = 3, top = 12 } = {}) {
  const renderers = rendererThreads();
  await browser.startTracing(page, { categories: CATEGORIES });
  const faultsBefore = threadFaults(renderers);
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await read();
  const wall = (performance.now() - t0) / rounds;
  const faultsAfter = threadFaults(renderers);
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
  const faults = {};
  for (const [id, { name, minflt }] of faultsAfter) {
    const d = minflt - (faultsBefore.get(id)?.minflt ?? 0);
    if (d > 0) faults[name] = (faults[name] ?? 0) + d / rounds;
  }
  return { threads: summarise(trace.traceEvents ?? trace, rounds, top), faults, wall };
}

/** The threads of every chromium renderer process: `[pid, tid]` pairs. */
function rendererThreads() {
  const out = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let cmd;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (!cmd.includes("chromium") || !cmd.includes("--type=renderer")) continue;
    for (const tid of readdirSync(`/proc/${pid}/task`)) out.push([pid, tid]);
  }
  return out;
}

/** Minor faults so far of each thread: `pid/tid` → `{ name, minflt }` (threads that ended are skipped). */
function threadFaults(threads) {
  const out = new Map();
  for (const [pid, tid] of threads) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      // Fields after the ")" that closes the name: state is field 3, minflt field 10.
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(`${pid}/${tid}`, { name: `${name} (${pid})`, minflt: Number(fields[7]) });
    } catch {}
  }
  return out;
}

/** Per thread: sampled milliseconds per round by function name (self time), from the trace's ProfileChunk events. */
function summarise(events, rounds, top) {
  const names = new Map();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args.name);
  // One profile per isolate (thread), opened by a "Profile" event on the sampled thread; its
  // chunks (sent from the profiler's own thread) carry new nodes and samples with time deltas.
  const threadOf = new Map();
  for (const e of events) if (e.name === "Profile") threadOf.set(`${e.pid}:${e.id}`, names.get(`${e.pid}:${e.tid}`) ?? `thread ${e.pid}:${e.tid}`);
  const profiles = new Map();
  for (const e of events) {
    if (e.name !== "ProfileChunk") continue;
    const id = `${e.pid}:${e.id}`;
    let p = profiles.get(id);
    if (p === undefined) profiles.set(id, (p = { thread: threadOf.get(id) ?? `profile ${id}`, nodes: new Map(), samples: [], deltas: [] }));
    const data = e.args?.data ?? {};
    for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    p.samples.push(...(data.cpuProfile?.samples ?? []));
    p.deltas.push(...(data.timeDeltas ?? []));
  }
  const threads = {};
  for (const p of profiles.values()) {
    const self = new Map();
    let busy = 0;
    for (let i = 0; i < p.samples.length; i++) {
      const node = p.nodes.get(p.samples[i]);
      // A sample's time is the gap to the next one (µs).
      const us = p.deltas[i + 1] ?? 0;
      const fn = node?.callFrame?.functionName || "(anonymous)";
      const url = node?.callFrame?.url ?? "";
      const label = url === "" ? fn : `${fn} ${url.slice(url.lastIndexOf("/") + 1)}:${node.callFrame.lineNumber}`;
      if (fn !== "(idle)") busy += us;
      self.set(label, (self.get(label) ?? 0) + us);
    }
    const ms = (us) => Math.round(us / rounds / 100) / 10;
    const sorted = [...self].filter(([label]) => label !== "(idle)").sort((a, b) => b[1] - a[1]);
    // Workers share a name ("DedicatedWorker thread"): numbered in the order seen.
    let thread = p.thread;
    for (let n = 2; thread in threads; n++) thread = `${p.thread} ${n}`;
    threads[thread] = { busy: ms(busy), self: sorted.slice(0, top).map(([label, us]) => [label, ms(us)]) };
  }
  return threads;
}
