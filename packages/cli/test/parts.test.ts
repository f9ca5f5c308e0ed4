// Partitioned `zarr cp`: 4 parts as 4 concurrent processes, against the local file system
// and against s3rver on 127.0.0.1, byte-identical object by object to one `zarr cp`; a
// part killed with SIGKILL mid-way and run again gives the same final bytes.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, } from "node:fs";
import path from "node:path";
import { createArray, createGroup, set } from "@zarr/core";
import type { Store } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { S3Store } from "@zarr/store-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, removeTempDirs, TEST_DIR, tempDir, zarr } from "./helpers.js";
import { type LocalS3, S3_ENV, startLocalS3 } from "./local-s3.js";


let dir: string;
let src: string;
let s3: LocalS3;

beforeAll(async () => {
  dir = tempDir("zarr-cli-parts-");
  src = path.join(dir, "src.zarr");
  const store = new FileSystemStore(src);
  await createGroup(store, "", { attributes: { title: "parts" } });
  const a = await createArray(store, "a", { shape: [40, 40], chunkShape: [4, 4], dataType: "int32" });
  await set(a, null, Int32Array.from({ length: 1600 }, (_, i) => i * 7));
  const b = await createArray(store, "g/b", { shape: [30], chunkShape: [7], dataType: "float64" });
  await set(b, null, Float64Array.from({ length: 30 }, (_, i) => i / 3));
  s3 = await startLocalS3("zarr-cli-parts-s3", dir);
}, 60_000);

afterAll(async () => {
  await s3?.close();
  removeTempDirs();
});

const s3Url = (prefix: string) => s3.url(prefix);

/** Every key of a store with its bytes (through the store: temporary files are not keys). */
async function objects(store: Store): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for await (const key of store.list?.() ?? []) out.set(key, Buffer.from((await store.get(key)) as Uint8Array));
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

async function ok(args: string[], env: Record<string, string> = {}): Promise<string> {
  const r = await zarr(args, { env });
  if (r.code !== 0) throw new Error(`${r.command} exited ${r.code}: ${r.stderr}`);
  return r.stdout.toString();
}

describe("zarr cp in 4 concurrent processes", () => {
  it("into a directory: the same objects as one zarr cp, and no markers left", async () => {
    await ok(["cp", src, path.join(dir, "single")]);
    const dst = path.join(dir, "parted");
    const outs = await Promise.all([0, 1, 2, 3].map((i) => ok(["cp", src, dst, "--part", `${i}/4`])));
    for (const out of outs) expect(out).toMatch(/copy job [0-9a-f]{16} part \d\/4: wrote \d+ of \d+ units/);
    expect(readdirSync(path.join(dst, ".zarr-jobs")).length).toBe(1);
    expect(existsSync(path.join(dst, "zarr.json"))).toBe(false);
    expect(await ok(["cp", src, dst, "--parts", "4", "--finalize"])).toMatch(/finalized: all 4 parts done/);
    expect(existsSync(path.join(dst, ".zarr-jobs"))).toBe(false);
    const want = await objects(new FileSystemStore(path.join(dir, "single")));
    expect(want.size).toBeGreaterThan(100);
    expect(await objects(new FileSystemStore(dst))).toEqual(want);
  }, 120_000);

  it("into s3rver, with the index from JOB_COMPLETION_INDEX: the same objects as one zarr cp", async () => {
    await ok(["cp", src, s3Url("single")], S3_ENV);
    await ok(["cp", src, s3Url("parted"), "--init"], S3_ENV);
    await Promise.all([0, 1, 2, 3].map((i) => ok(["cp", src, s3Url("parted"), "--parts", "4"], { ...S3_ENV, JOB_COMPLETION_INDEX: String(i) })));
    await ok(["cp", src, s3Url("parted"), "--parts", "4", "--finalize"], S3_ENV);
    const client = { endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" }, region: "us-east-1" };
    const single = new S3Store({ bucket: "jobs", prefix: "single", ...client });
    const parted = new S3Store({ bucket: "jobs", prefix: "parted", ...client });
    try {
      const want = await objects(single);
      expect(want.size).toBeGreaterThan(100);
      expect(await objects(parted)).toEqual(want);
    } finally {
      single.close();
      parted.close();
    }
  }, 120_000);
});

describe("a part killed with SIGKILL", () => {
  it("run again (with --resume) gives the same final bytes", async () => {
    const dst = path.join(dir, "killed");
    const chunkFiles = () => (existsSync(path.join(dst, "a", "c")) ? readdirSync(path.join(dst, "a", "c"), { recursive: true }).length : 0);
    // One key at a time, so the kill lands between and during writes, not after the part.
    const child = spawn(process.execPath, [CLI, "cp", src, dst, "--part", "0/2", "-j", "1"], { stdio: "ignore" });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    while (chunkFiles() < 5 && child.exitCode === null) await new Promise((r) => setTimeout(r, 2));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const marker = await zarr(["cp", src, dst, "--parts", "2", "--finalize"]);
    expect(marker.code).not.toBe(0);
    expect(marker.stderr).toMatch(/JOB_INCOMPLETE.*2 of 2 parts have not finished/);
    expect(await ok(["cp", src, dst, "--part", "0/2", "--resume"])).toMatch(/already there/);
    await ok(["cp", src, dst, "--part", "1/2"]);
    await ok(["cp", src, dst, "--parts", "2", "--finalize"]);
    expect(await objects(new FileSystemStore(dst))).toEqual(await objects(new FileSystemStore(path.join(dir, "single"))));
  }, 120_000);
});

describe("part options", () => {
  it("are checked", async () => {
    const bad = async (args: string[], env: Record<string, string> = {}) => (await zarr(["cp", src, path.join(dir, "x"), ...args], { env })).stderr;
    expect(await bad(["--part", "4/4"])).toContain("The i of --part i/n must be a part index from 0 to 3");
    expect(await bad(["--part", "1-4"])).toContain("--part is i/n");
    expect(await bad(["--parts", "4"], { JOB_COMPLETION_INDEX: "", AWS_BATCH_JOB_ARRAY_INDEX: "" })).toContain("--parts 4 needs the part index");
    expect(await bad(["--parts", "4"], { AWS_BATCH_JOB_ARRAY_INDEX: "9" })).toContain("AWS_BATCH_JOB_ARRAY_INDEX must be a part index from 0 to 3");
    expect(await bad(["--init", "--finalize"])).toContain("--init and --finalize are separate steps");
    expect(await bad(["--finalize"])).toContain("--finalize needs the number of parts");
  }, 60_000);
});

describe("examples/parts", () => {
  const examples = path.resolve(TEST_DIR, "../../../examples/parts");

  it("the Kubernetes manifest is an Indexed Job running zarr cp --parts n over n completions", () => {
    const job = JSON.parse(readFileSync(path.join(examples, "k8s-indexed-job.yaml"), "utf8"));
    expect(job).toMatchObject({ apiVersion: "batch/v1", kind: "Job", spec: { completionMode: "Indexed" } });
    const n = job.spec.completions;
    const [part] = job.spec.template.spec.containers;
    const [init] = job.spec.template.spec.initContainers;
    const args: string[] = part.command;
    expect(args.slice(args.indexOf("cp"), args.indexOf("cp") + 3)).toEqual(init.command.slice(init.command.indexOf("cp"), init.command.indexOf("cp") + 3));
    expect(args[args.indexOf("--parts") + 1]).toBe(String(n));
    expect(init.command).toContain("--init");
    expect(job.spec.template.spec.restartPolicy).toBe("Never");
  });

  it("the xargs -P recipe runs the same command and gives the same objects as one zarr cp", async () => {
    const dst = path.join(dir, "xargs");
    const out = execFileSync("sh", [path.join(examples, "xargs-parts.sh"), src, dst, "5", "3"], {
      env: { ...process.env, ZARR: `${process.execPath} ${CLI}` },
      encoding: "utf8",
    });
    expect(out.match(/part \d\/5: wrote/g)?.length).toBe(5);
    expect(out).toMatch(/finalized: all 5 parts done/);
    if (!existsSync(path.join(dir, "single"))) await ok(["cp", src, path.join(dir, "single")]);
    expect(await objects(new FileSystemStore(dst))).toEqual(await objects(new FileSystemStore(path.join(dir, "single"))));
  }, 120_000);
});
