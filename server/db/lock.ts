import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(
      `The data folder ${dataDir} is in use by another server (process ${pid}). ` +
        'PGlite does not lock its folder and two processes on one folder lose and duplicate rows: ' +
        'stop the other server, or give this one its own folder with DATA_DIR.',
    );
    this.name = 'DataDirLockedError';
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the data folder for this process alone: an exclusively created lock file holding our pid.
 * A lock left by a process that is gone is taken over; a live one refuses with DataDirLockedError.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner = NaN;
      try {
        owner = Number(readFileSync(path, 'utf8').trim());
      } catch {
        continue; // removed between our open and read: try again
      }
      if (Number.isInteger(owner) && owner > 0 && processAlive(owner)) {
        throw new DataDirLockedError(dataDir, owner);
      }
      rmSync(path, { force: true }); // stale lock from a process that is gone
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}
