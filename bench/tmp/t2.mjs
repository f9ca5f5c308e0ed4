import { inflateInto } from "../../packages/codec-gzip/dist/inflate-into.node.js";
import { gzipSync, deflateSync } from "node:zlib";
const data = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 251 ^ (i >> 9));
for (const format of ["gzip", "zlib"]) {
  const packed = format === "gzip" ? gzipSync(data) : deflateSync(data);
  const out = new Uint8Array(data.length + 1);
  const t = (label, input) => { try { const r = inflateInto(input, format, out); console.log(format, label, r?.length); } catch (e) { console.log(format, label, "ERR", e.message); } };
  t("good", packed);
  const badSum = new Uint8Array(packed); badSum[badSum.length - (format === "gzip" ? 8 : 1)] ^= 0x40;
  t("badsum", badSum);
  t("good", packed);
  t("trunc", packed.subarray(0, packed.length >> 1));
  t("good", packed);
  t("rand", new Uint8Array(500).map((_, i) => (i * 37) & 255));
  t("good", packed);
}
