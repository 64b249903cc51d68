import { defineConfig } from "vite"

// A plain TypeScript + DOM page: Vite needs no plugin. `VITE_S2_API_URL` (or `?api=` in the page's
// URL) sets the API root; `pnpm dev` serves on http://localhost:5173.
export default defineConfig({
  build: { target: "es2022", sourcemap: true }
})
