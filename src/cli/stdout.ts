/**
 * Where a command's output goes. Into a pipe, socket or file it is written straight to fd 1:
 * making `process.stdout` for one loads Node's tty and net modules and builds a stream, a few
 * milliseconds of every command's start, and a command writes its output once. Anything else (a
 * terminal) gets the stream, as does streamed output (`cairn export`). Every write in the CLI goes through here, so a
 * closed pipe (`cairn list | head`) ends the command quietly either way.
 */
import { fstatSync, writeSync } from 'node:fs';

let stream: NodeJS.WriteStream | undefined;
let direct: boolean | undefined;

/** fd 1 is a pipe, socket or file: no terminal, and nothing a plain write(2) cannot do. */
function writesDirectly(): boolean {
  if (direct === undefined) {
    try {
      const st = fstatSync(1);
      direct = st.isFIFO() || st.isSocket() || st.isFile();
    } catch {
      direct = false;
    }
  }
  return direct;
}

/** The reader went away: nothing more to say, and not an error worth a stack trace. */
const closedPipe = (): never => process.exit(0);

/** process.stdout, with a closed pipe ending the command quietly. */
export function stdout(): NodeJS.WriteStream {
  if (!stream) {
    stream = process.stdout;
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') closedPipe();
      throw err;
    });
  }
  return stream;
}

/** Whether stdout is a terminal (colour, width), without making the stream when it is not. */
export function stdoutIsTTY(): boolean {
  return !writesDirectly() && stdout().isTTY === true;
}

/** The terminal's width, or undefined when stdout is not a terminal. */
export function stdoutColumns(): number | undefined {
  return stdoutIsTTY() ? stdout().columns : undefined;
}

/** Writes `text` to stdout (see the file's comment). */
export function writeOut(text: string): void {
  if (stream || !writesDirectly()) {
    stdout().write(text);
    return;
  }
  let rest = Buffer.from(text);
  try {
    while (rest.length > 0) rest = rest.subarray(writeSync(1, rest));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') closedPipe();
    // A non-blocking pipe that is full: the stream waits for the reader.
    if (code === 'EAGAIN') stdout().write(rest);
    else throw err;
  }
}
