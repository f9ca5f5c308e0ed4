// CPU time per thread of this process, on Linux: /proc/self/task/<tid>/schedstat holds each
// thread's time on a CPU in nanoseconds (process.cpuUsage() counts every thread together,
// and Node 20 has no per-thread CPU clock for worker threads).
import { existsSync, readdirSync, readFileSync } from "node:fs";

/** Whether per-thread CPU time can be read here. */
export const haveThreadCpu = existsSync("/proc/self/task") && existsSync(`/proc/self/task/${process.pid}/schedstat`);

/** The ids of this process's threads now (the main thread's is `process.pid`). */
export function threadIds() {
  return haveThreadCpu ? readdirSync("/proc/self/task").map(Number) : [];
}

/** CPU milliseconds the threads `tids` have run so far (threads that have ended count 0). */
export function threadCpuMs(tids) {
  let ns = 0;
  for (const tid of tids) {
    try {
      ns += Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread has ended.
    }
  }
  return ns / 1e6;
}

/** CPU milliseconds of the whole process (every thread, user + system). */
export function processCpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
