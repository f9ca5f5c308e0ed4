import { openArray, get } from "@zarr/all";
import { FileSystemStore } from "@zarr/store-fs";
for (const n of ["raw","gzip"]) {
  for (let r=0;r<3;r++){
  const t0=performance.now();
  const arr = await openArray(new FileSystemStore("/tmp/small/"+n+".zarr"), "");
  const res = await get(arr);
  console.log(n, ((performance.now()-t0)/1000).toFixed(3), res.data.length);
  }
}
