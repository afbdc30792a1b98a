/**
 * Reading import input with a ceiling: lines of a JSONL file one at a time, and whole files (JSON,
 * markdown) only up to a size. An endless or enormous input (`/dev/zero`, a 100 MiB line) is refused
 * with its file and line named once the ceiling is passed, before it fills memory; `readline` and
 * `readFileSync` would read it all and die with a RangeError.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { importError } from './model.js';

/** A JSONL line: a task line holds at most a 100,000-character description, escaped (6 bytes a character at worst). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** A whole file: a Task Master tasks.json or a DevPlanner card. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

const mib = (n: number) => `${Math.round(n / (1024 * 1024))} MiB`;

export interface Line {
  text: string;
  /** 1-based. */
  line: number;
  /** Bytes read through the end of this line, for progress. */
  bytes: number;
}

/** The lines of `file` (LF or CRLF), decoded as UTF-8; a line longer than `max` bytes is an error naming it. */
export async function* boundedLines(file: string, max = MAX_LINE_BYTES): AsyncGenerator<Line> {
  // Chunks small enough that they are ordinary young objects (see cairn.ts).
  const input = createReadStream(file, { highWaterMark: 1 << 16 });
  let parts: Buffer[] = [];
  let held = 0;
  let line = 0;
  let bytes = 0;
  const text = (last: Buffer) => {
    const whole = parts.length ? Buffer.concat([...parts, last]) : last;
    parts = [];
    held = 0;
    const end = whole.length && whole[whole.length - 1] === 0x0d ? whole.length - 1 : whole.length;
    return whole.toString('utf8', 0, end);
  };
  const tooLong = () => importError({ file, line: line + 1 }, null, `the line is longer than ${mib(max)}, and one line holds one record`);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let from = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, from)) {
        const length = held + nl - from;
        if (length > max) throw tooLong();
        bytes += length + 1;
        yield { text: text(chunk.subarray(from, nl)), line: ++line, bytes };
        from = nl + 1;
      }
      if (from < chunk.length) {
        held += chunk.length - from;
        if (held > max) throw tooLong();
        parts.push(chunk.subarray(from));
      }
    }
    if (held > 0) {
      bytes += held;
      yield { text: text(Buffer.alloc(0)), line: ++line, bytes };
    }
  } finally {
    input.destroy();
  }
}

/** A whole file as UTF-8, refused past `max` bytes; reads by size, so a device that never ends is refused too. */
export function readBounded(file: string, max = MAX_FILE_BYTES): string {
  const fd = openSync(file, 'r');
  try {
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1 << 20, max + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      parts.push(n === buf.length ? buf : buf.subarray(0, n));
      total += n;
      if (total > max) throw importError({ file }, null, `the file is larger than ${mib(max)}`);
    }
    return Buffer.concat(parts, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
