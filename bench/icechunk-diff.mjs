#!/usr/bin/env node
// Icechunk diff benchmark: what changed between two snapshots, found two ways, side by side.
//  - transaction logs: IcechunkRepository.diff folds the logs of the commits in between
//    (one small file per commit; the chunk coordinates each commit wrote);
//  - manifests: what a reader without transaction logs would do: open both snapshots and
//    compare every chunk reference of the array (IcechunkStore.chunkRef over the whole grid).
// The repository (written in memory by the test-only writer, bench/lib/icechunk-writer.mjs)
// holds one array of G×G chunks (inline references) and K commits after the first, each
// rewriting G×G/K chunks; the diff runs over all K commits. Also times one commit's
// transaction log (transactionLog) and the same diff in a repository expired by Icechunk 2.1
// (the K commits' logs listed as pruned ancestor logs of the tip, spec 2.1).
//
//   node bench/icechunk-diff.mjs            G = 256 (65,536 chunks), K = 8, 5 repetitions
//   node bench/icechunk-diff.mjs --quick    G = 32, K = 4, one repetition
//   node bench/icechunk-diff.mjs --grid 512 --commits 16 --reps 9
import { main, parseArgs, reps as repetitions, requireBuilt } from "./lib/common.mjs";
import { IcechunkWriter } from "./lib/icechunk-writer.mjs";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const grid = args.number("--grid", args.quick ? 32 : 256);
  const commits = args.number("--commits", args.quick ? 4 : 8);
  const reps = repetitions(args, 5);
  const { MemoryStore } = await import("@zarr/all");
  const { IcechunkRepository } = await import("@zarr/store-icechunk");

  const build = async (expired) => {
    const storage = new MemoryStore();
    const writer = new IcechunkWriter(storage, { specVersion: 2 });
    await writer.init();
    const nodeId = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 9);
    const metadata = {
      zarr_format: 3, node_type: "array", shape: [grid, grid], data_type: "uint8", fill_value: 0,
      chunk_grid: { name: "regular", configuration: { chunk_shape: [1, 1] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      codecs: [{ name: "bytes" }], attributes: {},
    };
    const version = new Uint8Array(grid * grid);
    for (let k = 0; k < commits; k++) {
      const written = [];
      for (let i = k; i < grid * grid; i += commits) {
        version[i] = k + 1;
        written.push([Math.floor(i / grid), i % grid]);
      }
      const chunks = [];
      for (let i = 0; i < grid * grid; i++) if (version[i] > 0) chunks.push({ index: [Math.floor(i / grid), i % grid], inline: Uint8Array.of(version[i]) });
      await writer.commit(`write ${k}`, [{ path: "/", nodeId: Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 1), metadata: { zarr_format: 3, node_type: "group", attributes: {} } }, { path: "/a", nodeId, metadata, chunks }], {
        txLog: { updatedChunks: [{ nodeId, chunks: written }], newArrays: k === 0 ? [nodeId] : [] },
      });
    }
    if (expired) await writer.expire(Array.from({ length: commits - 1 }, (_, i) => i + 1), { reparent: { [commits]: 0 }, trackTxLogs: true });
    await writer.finish({ branches: { main: commits } });
    return storage;
  };

  const time = async (fn) => {
    const t = performance.now();
    const out = await fn();
    return [performance.now() - t, out];
  };
  const plain = await build(false);
  const expired = await build(true);
  const rows = { logs: [], manifests: [], one: [], expired: [] };
  let changed = 0;
  for (let r = 0; r < reps; r++) {
    // A fresh repository object each time: nothing cached between repetitions.
    const [tLogs, diff] = await time(async () => {
      const repo = await IcechunkRepository.open(plain);
      return repo.diff({ from: { snapshot: "1CECHNKREP0F1RSTCMT0" }, to: { branch: "main" } });
    });
    changed = diff.updatedChunks["/a"].length;
    const [tManifests, found] = await time(async () => {
      const repo = await IcechunkRepository.open(plain);
      const [from, to] = await Promise.all([repo.store({ snapshot: "1CECHNKREP0F1RSTCMT0" }), repo.store({ branch: "main" })]);
      let n = 0;
      for (let y = 0; y < grid; y++) {
        for (let x = 0; x < grid; x++) {
          const [a, b] = await Promise.all([from.chunkRef(`a/c/${y}/${x}`), to.chunkRef(`a/c/${y}/${x}`)]);
          if (JSON.stringify(a) !== JSON.stringify(b)) n++;
        }
      }
      return n;
    });
    if (found !== changed) throw new Error(`the two diffs disagree: ${found} and ${changed} chunks`);
    const [tOne] = await time(async () => (await IcechunkRepository.open(plain)).transactionLog({ branch: "main" }));
    const [tExpired, composite] = await time(async () => {
      const repo = await IcechunkRepository.open(expired);
      return repo.diff({ from: { snapshot: "1CECHNKREP0F1RSTCMT0" }, to: { branch: "main" } });
    });
    if (composite.updatedChunks["/a"].length !== changed) throw new Error("the expired repository's diff is incomplete");
    rows.logs.push(tLogs);
    rows.manifests.push(tManifests);
    rows.one.push(tOne);
    rows.expired.push(tExpired);
  }
  const logs = median(rows.logs);
  const manifests = median(rows.manifests);
  console.log(`## Icechunk diff: ${grid}×${grid} chunks, ${commits} commits, ${changed} chunks changed (median of ${reps})\n`);
  console.log("| how | time | chunks/s | vs transaction logs |");
  console.log("|---|---:|---:|---:|");
  const row = (name, t) => console.log(`| ${name} | ${ms(t)} | ${Math.round(changed / (t / 1000)).toLocaleString("en")} | ${(t / logs).toFixed(2)}× |`);
  row("diff from transaction logs", logs);
  row("diff of spec 2.1 expired repository (pruned ancestor logs)", median(rows.expired));
  row("compare every chunk reference of both snapshots", manifests);
  console.log(`\none commit's transaction log (${Math.ceil((grid * grid) / commits)} chunks): ${ms(median(rows.one))}`);
});
