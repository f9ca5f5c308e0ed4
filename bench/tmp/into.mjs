import * as zlib from "node:zlib";
import { readFileSync, readdirSync } from "node:fs";
const dir = `bench/data/full/gzip/v3.zarr`;
const files = [];
for (const i of readdirSync(`${dir}/c`)) for (const j of readdirSync(`${dir}/c/${i}`)) files.push(readFileSync(`${dir}/c/${i}/${j}`));
const inst = new zlib.Gunzip();
const handle = inst._handle, state = inst._writeState;
let err;
handle.onerror = (message, errno, code) => { err = { message, errno, code }; };
const scratch = Buffer.alloc((1 << 20) + 64);
function into(f) {
  handle.reset(); err = undefined;
  handle.writeSync(zlib.constants.Z_FINISH, f, 0, f.length, scratch, 0, scratch.length);
  if (err) throw new Error(err.message);
  return [scratch.length - state[0], f.length - state[1]];
}
console.log(into(files[0]));
const bad = Buffer.from(files[0]); bad[100] ^= 0xff; bad[200] ^= 0x55;
try { console.log(into(bad)); } catch (e) { console.log("error:", e.message); }
console.log(into(files[1]));
const trunc = files[2].subarray(0, 5000);
try { console.log("trunc", into(trunc)); } catch (e) { console.log("error:", e.message); }
console.log(into(files[3]));
