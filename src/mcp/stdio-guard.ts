/**
 * What reaches the SDK's stdio transport: whole, well-formed JSON-RPC messages only. The SDK closes
 * its transport on a line over its 10 MiB buffer (the process then lives on, deaf, holding the
 * database) and only logs a line that is not JSON; a batch gets nothing. Here each line is checked
 * first: too long, not JSON, not a JSON-RPC message, a batch, or a tools/call with a `__proto__`
 * argument is answered with its JSON-RPC error on stdout and dropped, and serving goes on. If the
 * transport closes anyway, `onClosed` lets the server exit so the host sees the disconnect.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { protoArgumentRefusal, type JsonRpcErrorResponse } from './proto-arguments.js';

/** Longest line accepted, in bytes: below the SDK's own 10 MiB limit, far above any real request. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

const NL = 0x0a;

function rpcError(id: unknown, code: number, message: string): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code, message } };
}

/** The error for a line, or undefined when it may go to the SDK. */
export function checkLine(line: string): JsonRpcErrorResponse | undefined {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    return rpcError(null, -32700, `Parse error: the line is not valid JSON (${(err as Error).message}). Send one JSON-RPC message per line.`);
  }
  if (Array.isArray(msg)) return rpcError(null, -32600, 'Invalid Request: JSON-RPC batches are not supported; send one message per line.');
  if (typeof msg !== 'object' || msg === null || (msg as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    return rpcError((msg as { id?: unknown } | null)?.id, -32600, 'Invalid Request: not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0").');
  }
  return protoArgumentRefusal(msg);
}

/** Lines from `input` that pass checkLine, newline-terminated; the others answered on `output`. */
export function guardLines(input: Readable, output: Writable, maxLineBytes = MAX_LINE_BYTES): PassThrough {
  const out = new PassThrough();
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false; // inside a line already refused for its size: drop up to its end
  const answer = (e: JsonRpcErrorResponse) => output.write(`${JSON.stringify(e)}\n`);
  const tooLong = () => answer(rpcError(null, -32600, `Invalid Request: the message is larger than ${maxLineBytes} bytes and was dropped.`));
  const finishLine = () => {
    const line = Buffer.concat(parts).toString('utf8').replace(/\r$/, '');
    parts = [];
    size = 0;
    if (line.trim() === '') return;
    const refusal = checkLine(line);
    if (refusal) answer(refusal);
    else out.write(`${line}\n`);
  };
  input.on('data', (chunk: Buffer | string) => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = buf.indexOf(NL); ; nl = buf.indexOf(NL)) {
      const piece = nl < 0 ? buf : buf.subarray(0, nl);
      if (skipping) {
        if (nl >= 0) skipping = false;
      } else if (size + piece.length > maxLineBytes) {
        parts = [];
        size = 0;
        tooLong();
        skipping = nl < 0;
      } else {
        parts.push(piece);
        size += piece.length;
        if (nl >= 0) finishLine();
      }
      if (nl < 0) break;
      buf = buf.subarray(nl + 1);
    }
  });
  input.on('end', () => {
    if (!skipping && size > 0) finishLine();
    out.end();
  });
  input.on('close', () => out.end());
  input.on('error', (err) => out.destroy(err));
  return out;
}

/** The SDK's stdio transport over guarded stdin; `onClosed` runs when it closes for any reason. */
export class GuardedStdioTransport extends StdioServerTransport {
  readonly #onClosed: () => void;
  constructor(onClosed: () => void, input: Readable = process.stdin, output: Writable = process.stdout) {
    super(guardLines(input, output), output);
    this.#onClosed = onClosed;
  }

  override async close(): Promise<void> {
    await super.close();
    this.#onClosed();
  }
}
