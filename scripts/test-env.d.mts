/** Where the test fixtures live ($ZARR_FIXTURES, else test-data/ in the repository). */
export function fixturesDir(): string;
/** True when /usr/bin/python3 with numpy, zarr 2.x and numcodecs is available. */
export function havePythonZarr(): boolean;
export function havePythonModules(modules: readonly string[]): boolean;
/** True when GDAL's command-line tools are available. */
export function haveGdal(): boolean;
/** True when Debian's chromium is installed (and ZARR_TEST_NO_CHROMIUM is unset). */
export function haveChromium(): boolean;
/** Path of Debian's chromium. */
export const CHROMIUM: string;
/** Skip only when the peer is missing and this is not CI. */
export function skipWithout(available: boolean, what: string): boolean;
/** Skips the running test when the peer is missing outside CI. */
export function requirePeer(available: boolean, what: string): void;
/** `requirePeer` for Debian's python3 with numpy, zarr 2.x and numcodecs. */
export function requirePythonZarr(): void;
/** Launches Debian's chromium headless through playwright-core. */
export function launchChromium(): Promise<import("playwright-core").Browser>;
