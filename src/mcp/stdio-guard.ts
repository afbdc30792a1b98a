/**
 * The stdio transport `cairn mcp` serves on: newline-delimited JSON-RPC, each line parsed once and
 * checked before the SDK sees it. The SDK's own stdio transport closes on a line over its 10 MiB
 * buffer (the process then lives on, deaf, holding the database) and only logs a line that is not
 * JSON; a batch gets nothing. Here a line that is too long, not JSON, not a JSON-RPC message, a
 * batch, or a tools/call with a `__proto__` argument is answered with its JSON-RPC error on stdout
 * and dropped, and serving goes on. Every other line goes to the SDK as the parsed object: the
 * SDK's transport would parse the text again and then check it against its message schema, which
 * the protocol layer does once more when it dispatches (round trips are measured in
 * docs/benchmarks.md). When the transport closes, `onClosed` lets the server exit so the host sees
 * the disconnect.
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import type { EarlyStart } from './early-initialize.js';
import { protoArgumentRefusal, type JsonRpcErrorResponse } from './proto-arguments.js';

/** Longest line accepted, in bytes: below the SDK's own 10 MiB limit, far above any real request. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

const NL = 0x0a;

function rpcError(id: unknown, code: number, message: string): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code, message } };
}

/** The line's message, or the error that answers it. */
export function checkLine(line: string): { message: JSONRPCMessage } | { refusal: JsonRpcErrorResponse } {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    return { refusal: rpcError(null, -32700, `Parse error: the line is not valid JSON (${(err as Error).message}). Send one JSON-RPC message per line.`) };
  }
  if (Array.isArray(msg)) return { refusal: rpcError(null, -32600, 'Invalid Request: JSON-RPC batches are not supported; send one message per line.') };
  if (typeof msg !== 'object' || msg === null || (msg as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    return { refusal: rpcError((msg as { id?: unknown } | null)?.id, -32600, 'Invalid Request: not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0").') };
  }
  const refusal = protoArgumentRefusal(msg);
  return refusal ? { refusal } : { message: msg as JSONRPCMessage };
}

/** How much of an oversized line's start and end is kept to find its id. */
const EDGE_BYTES = 512;
/** The id as the first member (or the second, after "jsonrpc"), as most clients write requests. */
const HEAD_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")/;
/** The id as the last member, as the SDK writes requests (`{...request, jsonrpc, id}`): closed by the object's own brace. */
const TAIL_ID = /[,{]\s*"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/;

/**
 * The id of a line too long to parse, read from its start or end when it is there: the refusal then
 * answers the call, which would otherwise wait for its full timeout. null when it cannot be found.
 */
export function idOfOversized(head: Buffer, tail: Buffer): string | number | null {
  const m = HEAD_ID.exec(head.toString('utf8')) ?? TAIL_ID.exec(tail.toString('utf8').replace(/\r$/, ''));
  if (!m) return null;
  try {
    const id = JSON.parse(m[1]!) as unknown;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** The first `n` bytes of `parts` joined, copied (the parts are let go). */
function firstBytes(parts: Buffer[], n: number): Buffer {
  const out: Buffer[] = [];
  let size = 0;
  for (const p of parts) {
    if (size >= n) break;
    out.push(p.subarray(0, n - size));
    size += Math.min(p.length, n - size);
  }
  return Buffer.concat(out, size);
}

/** The last `n` bytes of `a` followed by `b`. */
const lastBytes = (a: Buffer, b: Buffer, n: number): Buffer => (b.length >= n ? b.subarray(b.length - n) : Buffer.concat([a.subarray(Math.max(0, a.length - (n - b.length))), b]));

/** JSON with object keys sorted, to compare two answers whatever order their keys were set in. */
function stableJson(v: unknown): string {
  return JSON.stringify(v, (_, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));
}

/** Newline-delimited JSON-RPC over a pair of streams (stdin and stdout by default); `onClosed` runs when it closes for any reason. */
export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly #onClosed: () => void;
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxLineBytes: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** Inside a line too long to take: its start and (so far) end, kept to find its id; the rest is dropped up to its end. */
  #dropping: { head: Buffer; tail: Buffer } | undefined;
  #started = false;
  #closed = false;
  /** What was read and answered before the server loaded (early-initialize.ts). */
  #early: EarlyStart | undefined;

  constructor(onClosed: () => void, input: Readable = process.stdin, output: Writable = process.stdout, maxLineBytes = MAX_LINE_BYTES, early?: EarlyStart) {
    this.#onClosed = onClosed;
    this.#input = input;
    this.#output = output;
    this.#maxLineBytes = maxLineBytes;
    this.#early = early;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('The stdio transport is already started.');
    this.#started = true;
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onEnd);
    this.#input.on('close', this.#onInputClosed);
    this.#input.on('error', this.#onError);
    this.#output.on('error', this.#onOutputError);
    if (this.#input.readableEnded || this.#input.destroyed) setImmediate(this.#onInputClosed);
    // Bytes read before the server loaded come first; the stream was left paused so none were lost.
    if (this.#early?.pending.length) this.#onData(this.#early.pending);
    this.#input.resume();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('The stdio transport is closed.'));
    const answered = this.#early?.answered;
    if (answered && 'result' in message && message.id === answered.id) {
      this.#early = undefined;
      if (stableJson(message.result) !== stableJson(answered.result)) {
        this.onerror?.(new Error(`the early initialize answer differs from the SDK's: ${JSON.stringify(answered.result)} against ${JSON.stringify(message.result)}`));
      }
      return Promise.resolve();
    }
    return this.#write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#input.off('close', this.#onInputClosed);
    this.#input.off('error', this.#onError);
    // A write failing after the close (the host went away) has no one left to tell.
    this.#output.off('error', this.#onOutputError);
    this.#output.on('error', () => undefined);
    if (this.#input.listenerCount('data') === 0) this.#input.pause();
    this.#parts = [];
    this.onclose?.();
    this.#onClosed();
  }

  /** Resolves once the text is handed to the stream (at once unless it is backed up). */
  #write(text: string): Promise<void> {
    if (this.#output.write(text)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (err?: Error) => {
        this.#output.off('drain', done);
        this.#output.off('error', done);
        if (err) reject(err);
        else resolve();
      };
      this.#output.once('drain', done);
      this.#output.once('error', done);
    });
  }

  #answer(refusal: JsonRpcErrorResponse): void {
    this.#write(`${JSON.stringify(refusal)}\n`).catch((err: unknown) => this.onerror?.(err as Error));
  }

  #finishLine(): void {
    const line = (this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts)).toString('utf8').replace(/\r$/, '');
    this.#parts = [];
    this.#size = 0;
    if (line.trim() === '') return;
    const checked = checkLine(line);
    if ('refusal' in checked) return this.#answer(checked.refusal);
    try {
      this.onmessage?.(checked.message);
    } catch (err) {
      this.onerror?.(err as Error);
    }
  }

  readonly #onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = buf.indexOf(NL); ; nl = buf.indexOf(NL)) {
      const piece = nl < 0 ? buf : buf.subarray(0, nl);
      if (this.#dropping) {
        this.#dropping.tail = lastBytes(this.#dropping.tail, piece, EDGE_BYTES);
        if (nl >= 0) this.#refuseOversized();
      } else if (this.#size + piece.length > this.#maxLineBytes) {
        this.#dropping = { head: firstBytes([...this.#parts, piece], EDGE_BYTES), tail: Buffer.from(piece.subarray(Math.max(0, piece.length - EDGE_BYTES))) };
        this.#parts = [];
        this.#size = 0;
        if (nl >= 0) this.#refuseOversized();
      } else {
        this.#parts.push(piece);
        this.#size += piece.length;
        if (nl >= 0) this.#finishLine();
      }
      if (nl < 0) break;
      buf = buf.subarray(nl + 1);
    }
  };

  /** Answers the line being dropped, once its end (and with it, often, its id) has been read. */
  #refuseOversized(): void {
    const { head, tail } = this.#dropping!;
    this.#dropping = undefined;
    this.#answer(rpcError(idOfOversized(head, tail), -32600, `Invalid Request: the message is larger than ${this.#maxLineBytes} bytes and was dropped.`));
  }

  readonly #onEnd = (): void => {
    if (this.#dropping) this.#refuseOversized();
    else if (this.#size > 0) this.#finishLine();
    void this.close();
  };

  readonly #onInputClosed = (): void => void this.close();

  readonly #onError = (err: Error): void => this.onerror?.(err);

  readonly #onOutputError = (err: Error): void => {
    if (this.#closed) return;
    this.onerror?.(err);
    void this.close();
  };
}
