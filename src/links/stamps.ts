/**
 * A file's identity as last read: inode, size and the modification and change times. Two equal
 * stamps mean the file was not written between the reads (a save in place moves the times, a
 * replace by rename moves the inode), so a sync re-reads only files whose stamp moved.
 */
import { readFileSync, statSync } from 'node:fs';

/** The stamp of a file, or undefined when there is none (or it is not a regular file). */
export function stampOf(path: string): string | undefined {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st || !st.isFile()) return undefined;
  return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

export interface StampDiff {
  /** Files that are new or whose stamp moved. */
  changed: string[];
  /** Files that were there and are gone. */
  removed: string[];
}

/** What moved between the stamps as last read and as scanned now. */
export function diffStamps(before: ReadonlyMap<string, string>, now: ReadonlyMap<string, string>): StampDiff {
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [file, stamp] of now) if (before.get(file) !== stamp) changed.push(file);
  for (const file of before.keys()) if (!now.has(file)) removed.push(file);
  return { changed, removed };
}

/**
 * A file's text when it stood still while it was read (its stamp the same before and after) and is not
 * empty: an owner that saves in place truncates the file first, and half a record is not a record.
 * Undefined otherwise; the next check finds the stamp moved and reads it again.
 */
export function steadyText(file: string): string | undefined {
  const before = stampOf(file);
  if (before === undefined) return undefined;
  const text = readFileSync(file, 'utf8');
  return text.length > 0 && stampOf(file) === before ? text : undefined;
}
