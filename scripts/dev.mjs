// npm run dev: the API with reload on changes, and Vite's dev server with /api proxied to it.
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '8080';
const children = [
  spawn('node_modules/.bin/tsx', ['watch', 'server/main.ts'], { stdio: 'inherit', env: { ...process.env, PORT: port } }),
  spawn('node_modules/.bin/vite', [], { stdio: 'inherit', env: { ...process.env, PORT: port } }),
];
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children) child.on('exit', (code) => {
  stop('SIGTERM');
  process.exit(code ?? 0);
});
