// `node --import ./load-recorder.mjs …`: appends the URL of every module the process loads
// to the file named by ZARR_LOAD_LOG, one per line (module.register hooks, Node ≥ 20.6).
import { register } from "node:module";

register(new URL("./load-recorder-hooks.mjs", import.meta.url));
