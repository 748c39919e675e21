// npm start: build what exists of the SPA, then serve it and /api/v1 from the reference server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setInterval } from 'node:timers';

// SPA_DIR names a build made elsewhere (`vite build --outDir`): it is served as it is, nothing is built.
if (!process.env.SPA_DIR && existsSync('index.html') && existsSync('vite.config.ts')) {
  console.log('Building the SPA (vite build)...');
  const build = spawnSync('node_modules/.bin/vite', ['build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/*
 * Node itself runs the server, with tsx as its loader: the tsx command would run it in a child process and,
 * when a stop signal's relay is not acknowledged within 30 ms (a busy machine), kill it by the signal.
 *
 * The server stops with this process, however this process is stopped; it always stops itself (closes the
 * HTTP server and the database, removes its lock on DATA_DIR) and this process exits with it:
 * - Ctrl-C, or a SIGTERM to the process group: the server gets the signal itself (and once more from here);
 * - SIGINT, SIGTERM or SIGHUP to this process alone: relayed to the server;
 * - npm stopped alone: npm signals only its shell (`sh -c node scripts/start.mjs`), which dies and leaves
 *   this process behind; this process sees its parent gone and stops the server as on a SIGTERM;
 * - this process killed outright (SIGKILL): the server's IPC channel to it closes, and the server stops on
 *   that (server/main.ts).
 * A server still running 20 s after the stop was asked is killed; its lock is then stale and the next start
 * takes it over.
 */
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

let stopping = false;
function stop(signal) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill(signal);
  if (stopping) return;
  stopping = true;
  setTimeout(() => server.kill('SIGKILL'), 20_000).unref();
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGHUP', () => stop('SIGTERM'));

// process.ppid is read once at startup: whether the parent is still there is asked of the system instead.
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch (error) {
    if (error.code === 'ESRCH') stop('SIGTERM');
  }
}, 250).unref();
