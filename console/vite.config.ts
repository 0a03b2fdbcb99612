// The operator console's build: Preact + TypeScript, bundled by Vite into console/dist, which the
// api role serves at / (app/http/console.ts). `npx vite console` serves it with hot reload,
// proxying the API to a gateway running on port 4000.
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const API = process.env.CONSOLE_API ?? 'http://127.0.0.1:4000';

export default defineConfig({
  plugins: [preact()],
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  server: { proxy: { '/graphql': API, '/api': API } },
});
