// Vite: the page and its worker script as ES modules (the worker imports codecs lazily,
// which needs the "es" worker format), served cross-origin isolated so the pool gets
// SharedArrayBuffer. `ZARR_STORE=DIR pnpm dev` also serves a store directory at /data/.
import { defineConfig } from "vite";
import { ISOLATED, storeMiddleware } from "./serve.mjs";

export default defineConfig({
  worker: { format: "es" },
  build: { target: "es2022" },
  server: { headers: ISOLATED },
  preview: { headers: ISOLATED },
  plugins: [
    {
      name: "zarr-store",
      configureServer(server) {
        if (process.env.ZARR_STORE) server.middlewares.use(storeMiddleware(process.env.ZARR_STORE));
      },
    },
  ],
});
