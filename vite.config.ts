import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // ELK (the layout engine of the reviewers' /flows charts) is one 1.5 MB chunk, loaded only by /flows;
    // the player's lobby is held to its own budget by the browser tests.
    chunkSizeWarningLimit: 1600,
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 8080}`, changeOrigin: false } },
  },
});
