/**
 * Containment for reads: a key whose real (symlink-resolved) path leaves the store's
 * real root is refused with `KEY_INVALID`, like writes.
 *
 * Resolving every chunk path would add a `realpath` (several system calls) to each read,
 * so the check is split in two cheap parts:
 * - the directory a key lives in is resolved once and remembered (a store has few
 *   directories and reads many chunks in each);
 * - the file itself is opened with `O_NOFOLLOW`, which costs nothing and fails only when
 *   the last component is a symbolic link; only then is that one path resolved.
 * Platforms without `O_NOFOLLOW` (Windows) resolve every path (correct, slower).
 */
import fs from "node:fs";
import nodePath from "node:path";
import { ZarrError } from "@zarr/spec";
import { errorCode, isMissing, READ_FLAGS, realpath } from "./fs-calls.js";
import { isInside } from "./key-paths.js";

/** `O_NOFOLLOW`, or 0 where the platform lacks it. */
const NO_FOLLOW: number = fs.constants.O_NOFOLLOW ?? 0;

/** Directories remembered as inside the root; the memory is dropped when it grows past this. */
const MAX_REMEMBERED_DIRS = 16_384;

/** `KEY_INVALID` for a key that resolves outside the store. */
export function escapesRoot(key: string): ZarrError {
  return new ZarrError(
    "KEY_INVALID",
    `Invalid store key ${JSON.stringify(key)}: resolves outside the store through a symbolic link (pass followSymlinks: true to allow)`,
    { key },
  );
}

/** True for the error `open(O_NOFOLLOW)` gives when the last component is a symbolic link. */
export function isRefusedLink(error: unknown): boolean {
  const code = errorCode(error);
  // Linux and macOS say ELOOP, FreeBSD EMLINK.
  return NO_FOLLOW !== 0 && (code === "ELOOP" || code === "EMLINK");
}

/** Checks read paths of one store against its real root. */
export class ReadContainment {
  /** Flags for opening a value: read-only, non-blocking, and not following a final link. */
  readonly openFlags = READ_FLAGS | NO_FOLLOW;
  /** True where `O_NOFOLLOW` is missing and every path must be resolved before reading. */
  readonly resolveEveryPath = NO_FOLLOW === 0;
  readonly #root: string;
  #realRoot: string | undefined;
  /**
   * Lexical directory paths found inside the real root (`true`), or being checked (the
   * check's promise, shared so concurrent reads in one directory resolve it once).
   */
  readonly #insideDirs = new Map<string, true | Promise<boolean>>();

  constructor(root: string) {
    this.#root = root;
  }

  /**
   * Checks the directory of `path` (the lexical path of `key`): `true` when it lies inside
   * the root, `false` when it does not exist (the key is missing). Throws `KEY_INVALID`
   * when it resolves outside. Synchronous `true` when already known (no await on the hot path).
   */
  checkDir(path: string, key: string): true | Promise<boolean> {
    const dir = nodePath.dirname(path);
    const known = this.#insideDirs.get(dir);
    if (known !== undefined) return known;
    const checking = this.#resolveDir(dir, key);
    this.#insideDirs.set(dir, checking);
    // Only an inside directory is remembered (#remember); a missing or outside one is asked again.
    checking.then(
      (inside) => {
        if (!inside && this.#insideDirs.get(dir) === checking) this.#insideDirs.delete(dir);
      },
      () => {
        if (this.#insideDirs.get(dir) === checking) this.#insideDirs.delete(dir);
      },
    );
    return checking;
  }

  /** {@link checkDir} with blocking calls. */
  checkDirSync(path: string, key: string): boolean {
    const dir = nodePath.dirname(path);
    if (this.#insideDirs.get(dir) === true) return true;
    let real: string;
    let realRoot: string;
    try {
      realRoot = this.#realRoot ?? fs.realpathSync.native(this.#root);
      real = fs.realpathSync.native(dir);
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    return this.#remember(dir, real, realRoot, key);
  }

  /**
   * The real path of `path`, checked inside the root; `undefined` when missing. For a
   * final component that is a link (or for every path without `O_NOFOLLOW`).
   */
  async resolveFile(path: string, key: string): Promise<string | undefined> {
    let real: string;
    let realRoot: string;
    try {
      realRoot = await this.#currentRealRoot();
      real = await realpath(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (!isInside(realRoot, real)) throw escapesRoot(key);
    return real;
  }

  /** {@link resolveFile} with blocking calls. */
  resolveFileSync(path: string, key: string): string | undefined {
    let real: string;
    let realRoot: string;
    try {
      realRoot = this.#realRoot ?? fs.realpathSync.native(this.#root);
      real = fs.realpathSync.native(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    this.#realRoot = realRoot;
    if (!isInside(realRoot, real)) throw escapesRoot(key);
    return real;
  }

  async #resolveDir(dir: string, key: string): Promise<boolean> {
    let real: string;
    let realRoot: string;
    try {
      realRoot = await this.#currentRealRoot();
      real = await realpath(dir);
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    return this.#remember(dir, real, realRoot, key);
  }

  #remember(dir: string, real: string, realRoot: string, key: string): true {
    this.#realRoot = realRoot;
    if (!isInside(realRoot, real)) throw escapesRoot(key);
    if (this.#insideDirs.size >= MAX_REMEMBERED_DIRS) this.#insideDirs.clear();
    this.#insideDirs.set(dir, true);
    return true;
  }

  /** The root's real path, resolved once it exists (a missing root is not remembered). */
  async #currentRealRoot(): Promise<string> {
    this.#realRoot ??= await realpath(this.#root);
    return this.#realRoot;
  }
}
