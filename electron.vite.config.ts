// electron-vite: the main process (with the engine worker), the sandboxed preload (CommonJS,
// since a sandboxed preload cannot be an ES module) and the React renderer.
import path from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: path.resolve('electron/main/index.ts'),
          'engine-worker': path.resolve('electron/main/engine-worker.ts'),
        },
        external: ['better-sqlite3'],
      },
    },
  },
  preload: {
    // Bundle everything (zod and the contract included): a sandboxed preload cannot require()
    // packages from node_modules, only 'electron' and a few built-ins.
    build: {
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: path.resolve('electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: path.resolve('renderer'),
    // Development only (`npm run dev`): React's fast refresh needs an inline preamble script and
    // the dev server's websocket; the built renderer keeps the strict policy of index.html.
    plugins: [
      react(),
      {
        name: 'statelens-dev-csp',
        apply: 'serve',
        transformIndexHtml: (html: string) =>
          html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("connect-src 'self'", "connect-src 'self' ws: http://localhost:*"),
      },
    ],
    build: {
      outDir: path.resolve('out/renderer'),
      rollupOptions: { input: path.resolve('renderer/index.html') },
    },
  },
});
