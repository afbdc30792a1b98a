/**
 * Writing another program's files safely: each file is replaced whole (a temporary file beside it,
 * then a rename), so its owner never reads half of one, and a crash leaves the old file or the new
 * one. Before it writes, a file is checked against its stamp as last read: if its owner changed it
 * since, the write stops with SourceMoved and the engine syncs and tries again, so nothing the owner
 * wrote is overwritten.
 */
import { mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SourceMoved } from '../source.js';
import { stampOf } from '../stamps.js';

/** Fails with SourceMoved when the file is not as last read (`expected` undefined: it must not exist). */
export function checkUnmoved(abs: string, rel: string, expected: string | undefined): void {
  if (stampOf(abs) !== expected) throw new SourceMoved(rel);
}

/**
 * Replaces (or creates) a file with `content`; returns its new stamp. The temporary name starts with
 * a dot and does not end in the owner's extension, so the owner's file watcher ignores it.
 */
export function replaceFile(abs: string, content: string): string {
  mkdirSync(dirname(abs), { recursive: true });
  const tmp = join(dirname(abs), `.${basename(abs)}.cairn-${process.pid}.tmp`);
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, abs);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return stampOf(abs)!;
}

export function removeFile(abs: string): void {
  unlinkSync(abs);
}
