/**
 * A lock file that names its holder from the moment it exists: the holder's id is written to a
 * private file first and linked into place in one step (link fails if the lock exists), so no
 * reader ever sees an empty lock and takes it too. A lock whose holder process is gone (SIGKILL) is
 * taken over by renaming it aside first: only one taker's rename can move a given file, and one
 * that moved a lock taken meanwhile by a live process puts it back.
 */
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { nodeCrypto } from './core/lazy-builtins.js';

export type Unlock = () => void;

/** What a lock file holds: "pid nonce". */
interface Holder {
  pid: number;
  text: string;
}

function holderOf(file: string): Holder | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    return { pid: Number(text.split(' ')[0]), text };
  } catch {
    return undefined; // released meanwhile
  }
}

/** Whether a process still runs: signal 0 checks without sending; EPERM means it runs as another user. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const dead = (h: Holder): boolean => !Number.isInteger(h.pid) || h.pid <= 0 || (h.pid !== process.pid && !processAlive(h.pid));

/**
 * Takes the lock at `file` if it is free (or its holder is dead). Answers the unlock, or undefined
 * with the live holder's pid when another process (or this one) holds it.
 */
export function tryLock(file: string): { unlock: Unlock } | { holder: number } {
  const mine = `${process.pid} ${nodeCrypto().randomBytes(6).toString('hex')}`;
  const staged = `${file}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(staged, mine);
  try {
    for (let tries = 0; tries < 5; tries++) {
      try {
        linkSync(staged, file);
        return { unlock: () => release(file, mine) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const h = holderOf(file);
      if (!h) continue;
      if (!dead(h)) return { holder: h.pid };
      takeOver(file, h);
    }
    return { holder: holderOf(file)?.pid ?? NaN };
  } finally {
    rmSync(staged, { force: true });
  }
}

/** Moves a dead holder's lock aside; a live lock moved by mistake (taken between our read and rename) goes back. */
function takeOver(file: string, stale: Holder): void {
  const aside = `${file}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return; // another taker moved it first
  }
  const moved = holderOf(aside);
  try {
    if (moved && moved.text !== stale.text) linkSync(aside, file);
  } catch {
    // The lock was taken again meanwhile: that holder keeps it.
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Removes the lock only if it is still ours (a lock taken over after a long pause is not). */
function release(file: string, mine: string): void {
  if (holderOf(file)?.text === mine) rmSync(file, { force: true });
}
