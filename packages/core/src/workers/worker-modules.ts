/**
 * The modules a worker can load: those its script registered by name (bundled apps, where
 * module files have no URL of their own), else whatever `import(url)` finds. One table per
 * worker, shared by the call runtime and the chunk task.
 */
import { ZarrError } from "@zarr/spec";

/** A registered module: the module object, or a function loading it (`() => import("…")`). */
export type WorkerModuleLoader = (() => Promise<object> | object) | object;

type Module = Record<string, unknown>;

const registered = new Map<string, WorkerModuleLoader>();
const loaded = new Map<string, Promise<Module>>();

/** Registers modules by name (later registrations of a name replace earlier ones). */
export function registerWorkerModules(modules: Readonly<Record<string, WorkerModuleLoader>>): void {
  for (const [name, loader] of Object.entries(modules)) {
    registered.set(name, loader);
    loaded.delete(name);
  }
}

/** Where a module is: a URL or registered name, and optionally a package specifier tried first. */
export interface WorkerModuleRef {
  moduleUrl: string;
  moduleName?: string;
}

/**
 * Loads a module once: by `moduleName` when that is registered, else by `moduleUrl` as a
 * registered name, else `import(moduleUrl)`. Fails with `UNSUPPORTED` naming both.
 */
export function loadWorkerModule(ref: WorkerModuleRef | string): Promise<Module> {
  const { moduleUrl, moduleName } = typeof ref === "string" ? { moduleUrl: ref, moduleName: undefined } : ref;
  const name = moduleName !== undefined && registered.has(moduleName) ? moduleName : registered.has(moduleUrl) ? moduleUrl : undefined;
  const id = name ?? moduleUrl;
  let loading = loaded.get(id);
  if (loading === undefined) {
    loading = (name !== undefined ? fromLoader(registered.get(name)) : import(/* @vite-ignore */ moduleUrl)).catch((error: unknown) => {
      loaded.delete(id);
      const what = moduleName !== undefined && moduleName !== moduleUrl ? `"${moduleName}" (${moduleUrl})` : `"${moduleUrl}"`;
      const how = name !== undefined ? "its registered loader failed" : "it is not registered with serveWorkerCalls and importing it failed";
      throw new ZarrError("UNSUPPORTED", `Worker module ${what} could not be loaded: ${how}: ${(error as Error)?.message ?? error}`, {
        cause: error,
      });
    }) as Promise<Module>;
    loaded.set(id, loading);
  }
  return loading;
}

async function fromLoader(loader: WorkerModuleLoader | undefined): Promise<Module> {
  return (typeof loader === "function" ? await (loader as () => Promise<object> | object)() : loader) as Module;
}
