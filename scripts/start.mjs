// npm start: build what exists of the SPA, then serve it and /api/v1 from the reference server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (existsSync('index.html') && existsSync('vite.config.ts')) {
  console.log('Building the SPA (vite build)...');
  const build = spawnSync('node_modules/.bin/vite', ['build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Node itself runs the server, with tsx as its loader: the tsx command would run it in a child process and,
// when a stop signal's relay is not acknowledged within 30 ms (a busy machine), kill it by the signal.
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
