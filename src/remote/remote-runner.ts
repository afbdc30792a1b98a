/**
 * Runs ops on a remote `cairn serve`: each op goes to the server's REST binding for it (the same
 * route the REST API generates from the op), so every tool and command answers what it answers
 * locally. runOp hands ops here when the context has `remote` set — one place for every surface.
 * When the server cannot be reached, writes that can wait (handoffs, creates, comments, status
 * changes) are recorded in the outbox and answered `persistedOffline: true`; reads say the server
 * is unreachable, and where. The outbox is delivered when the server answers again (a timer in
 * long-running processes, after each command in the CLI, and `cairn sync`).
 */
import { CairnError, ERROR_KINDS, type ErrorCode } from '../core/errors.js';
import { loadOp } from '../ops/op-modules.js';
import type { Op, OpContext, RemoteRunner } from '../ops/op.js';
import { join } from 'node:path';
import { type Outbox, OUTBOX_OPS, type OutboxEntry } from './outbox.js';
import { coreCodeOf } from '../ops/http-codes.js';
import { newUlid } from '../core/model/ids.js';

/** Writes that can wait in the outbox while the server is away. */

export interface RemoteOptions {
  /** The server's base URL (http://host:7420). */
  url: string;
  token?: string | undefined;
  /** Sent as X-Cairn-Actor only when named explicitly (--as, CAIRN_ACTOR); otherwise the token's name acts. */
  actor?: string | undefined;
  outbox: Outbox;
  /** Per-request limit (default 10 s). */
  timeoutMs?: number;
  log?: (message: string) => void;
}

/** What an op answers when it was recorded in the outbox instead of reaching the server. */
export interface OfflineReceipt {
  persistedOffline: true;
  outboxId: string;
  message: string;
}

class Unreachable extends Error {}

/**
 * Answers about the client, not one entry: a token refused (401) or short of a scope (403 with a
 * WWW-Authenticate challenge), too many requests (429). Delivery stops and the entries wait. A 403
 * without a challenge is about the entry (a handoff outside the server's workspace): refused, kept.
 */
const stopsDelivery = (status: number, challenged: boolean): boolean => status === 401 || status === 429 || (status === 403 && challenged);
const statusOf = new WeakMap<CairnError, { status: number; challenged: boolean }>();

export interface FlushReport {
  delivered: Array<{ id: string; op: string; result: unknown }>;
  refused: Array<{ id: string; op: string; error: { code: string; message: string } }>;
  /** Left for later: the server is still away (or another process is delivering). */
  remaining: number;
  /** Why delivery stopped early, if it did. */
  stopped?: string;
  /** The server refused this client (401, 403, 429), not an entry: what stopped delivery. */
  halted?: { status: number; code: string };
  /** Entries recorded for another server: delivered only when asked (`cairn sync --to URL`). */
  elsewhere: Array<{ id: string; op: string; url: string }>;
  /** Entry files that cannot be read (left in place; fix or remove them). */
  corrupt: Array<{ file: string; error: string }>;
}

export interface FlushOptions {
  /** Deliver entries recorded for another server to this one too (`cairn sync --to URL`). */
  retarget?: boolean;
}

const sameServer = (a: string, b: string): boolean => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

export class HttpRemoteRunner implements RemoteRunner {
  readonly url: string;
  #flushing: Promise<FlushReport> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  /** This process has heard the server answer (and recorded it in the outbox folder). */
  #answered = false;

  constructor(private readonly opts: RemoteOptions) {
    this.url = opts.url.replace(/\/+$/, '');
  }

  get outbox(): Outbox {
    return this.opts.outbox;
  }

  knownProjects(): Array<{ key: string; root: string | null }> | undefined {
    return this.outbox.knownProjects(this.url);
  }

  async run(op: Op, raw: Record<string, unknown>, ctx: OpContext): Promise<unknown> {
    const args = withSessionDefaults(op, raw, ctx);
    if (op.name === 'get_task_document' && typeof args.id === 'string') {
      const offline = this.#offlineDocument(args.id);
      if (offline) return offline;
      const delivered = this.outbox.find(args.id);
      if (delivered?.state === 'delivered') args.id = (delivered.entry.result as { taskId?: string } | undefined)?.taskId ?? args.id;
    }
    // A write's key is minted before its first send and kept for every later one (the outbox entry's
    // id): a first attempt that reached the server but whose answer did not come back (a timeout, a
    // proxy's 504) is then answered as a replay on delivery, never made twice.
    const key = op.readOnly ? undefined : newUlid();
    try {
      const out = await this.send(op, args, key);
      if (op.name === 'list_projects') this.outbox.rememberProjects(this.url, (out as { projects: Array<{ key: string; root: string | null }> }).projects);
      if (this.outbox.hasPending()) void this.flush().catch(() => undefined);
      return out;
    } catch (err) {
      if (!(err instanceof Unreachable)) throw err;
      if (op.readOnly || !OUTBOX_OPS.has(op.name)) throw this.unreachable(err.message, op);
      const entry = this.outbox.add({ op: op.name, args, url: this.url, ...(this.opts.actor ? { actor: this.opts.actor } : {}) }, key);
      this.opts.log?.(`server unreachable; ${op.name} recorded in the outbox as ${entry.id}`);
      this.#schedule();
      return receipt(op, entry, this.url, err.message, this.outbox.hasAnswered(this.url));
    }
  }

  /**
   * A handoff still in the outbox (its id is the outbox entry's): its document is the offline record
   * itself, status pending. Refused entries say why. Delivered ones are asked by their task id.
   */
  #offlineDocument(id: string): unknown {
    const found = this.outbox.find(id);
    if (!found || found.state === 'delivered') return undefined;
    if (found.state === 'refused') {
      throw new CairnError('TASK_NOT_FOUND', `Outbox entry ${id} (${found.entry.op}) was refused by ${this.url}: ${found.entry.error.code}: ${found.entry.error.message}. No task was made.`, {
        suggestions: ['cairn outbox  (the refused entry and its error)', `cairn outbox retry ${id}  (after fixing the cause)`],
      });
    }
    const a = found.entry.args as { repository?: string };
    return { taskId: id, documentPath: join(this.outbox.dir, `${id}.json`), status: 'pending', created: false, repository: a.repository ?? null };
  }

  /** One HTTP request for an op; throws Unreachable when no answer came, CairnError for the server's refusals. */
  async send(op: Op, args: Record<string, unknown>, idempotencyKey?: string): Promise<unknown> {
    const { path, rest } = fillPath(op, args);
    const url = new URL(`${this.url}/api/v1${path}`);
    const hasBody = op.rest.method === 'POST' || op.rest.method === 'PATCH';
    if (!hasBody) for (const [k, v] of Object.entries(rest)) appendQuery(url, k, v);
    // Suggestions as the ops' tool calls: this client shows them in its own terms (CLI commands, tool names).
    const headers: Record<string, string> = { accept: 'application/json', 'x-cairn-suggestions': 'calls' };
    if (hasBody) headers['content-type'] = 'application/json';
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    if (this.opts.actor) headers['x-cairn-actor'] = this.opts.actor;
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let res: Response;
    try {
      res = await fetch(url, { method: op.rest.method, headers, ...(hasBody ? { body: JSON.stringify(rest) } : {}), signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000) });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new Unreachable(cause?.code ?? cause?.message ?? (err as Error).message);
    }
    const text = await res.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = undefined;
    }
    if (res.ok && body !== undefined) {
      if (!this.#answered) {
        this.#answered = true;
        this.outbox.rememberAnswer(this.url);
      }
      return body;
    }
    // A proxy or something else answering: treat a gateway error as "not there", anything else as a refusal.
    if (res.status === 502 || (res.status === 503 && !isCairnError(body)) || res.status === 504) throw new Unreachable(`HTTP ${res.status}`);
    const refusal = fromServer(res.status, body, this.url);
    statusOf.set(refusal, { status: res.status, challenged: res.headers.has('www-authenticate') });
    throw refusal;
  }

  unreachable(why: string, op?: Op): CairnError {
    return new CairnError(
      'REMOTE_UNREACHABLE',
      `Cannot reach the Cairn server at ${this.url} (${why})${op ? `, so ${op.name} could not run` : ''}. Reads need the server; handoffs, creates, comments and status changes are kept in the outbox (${this.outbox.dir}) and delivered when it is back.`,
      {
        suggestions: [`Check that cairn serve is running at ${this.url}`, 'cairn outbox  (what is waiting)', 'cairn sync  (deliver now)'],
        details: { url: this.url, reason: why },
      },
    );
  }

  /**
   * Delivers pending entries in order, once each: the entry id is the Idempotency-Key, which the
   * server records in the same transaction as the write, so a delivery repeated after a crash (or
   * raced by another process) is answered without a second write. Stops at the first unreachable.
   */
  flush(opts: FlushOptions = {}): Promise<FlushReport> {
    this.#flushing ??= this.#flushOnce(opts).finally(() => (this.#flushing = undefined));
    return this.#flushing;
  }

  /** Pending entries for this server (all of them when retargeting), and those recorded for another. */
  #queue(retarget: boolean): { mine: OutboxEntry[]; elsewhere: OutboxEntry[] } {
    const all = this.outbox.pending();
    if (retarget) return { mine: all, elsewhere: [] };
    return { mine: all.filter((e) => sameServer(e.url, this.url)), elsewhere: all.filter((e) => !sameServer(e.url, this.url)) };
  }

  async #flushOnce(opts: FlushOptions): Promise<FlushReport> {
    const retarget = opts.retarget === true;
    const first = this.#queue(retarget);
    const report: FlushReport = {
      delivered: [],
      refused: [],
      remaining: 0,
      corrupt: this.outbox.corrupt(),
      elsewhere: first.elsewhere.map((e) => ({ id: e.id, op: e.op, url: e.url })),
    };
    if (report.elsewhere.length)
      this.opts.log?.(`${report.elsewhere.length} outbox entries were recorded for another server (${report.elsewhere[0]!.url}); cairn sync --to ${this.url} delivers them here`);
    // Nothing to deliver: no lock taken, so no outbox folder made where there is none.
    if (!first.mine.length) return report;
    const unlock = this.outbox.lock();
    if (!unlock) return { ...report, remaining: first.mine.length, stopped: 'another process is delivering this outbox' };
    try {
      for (const e of this.#queue(retarget).mine) {
        const op = await opFor(e);
        try {
          const result = await this.send(op, e.args, e.id);
          await faultPoint(e);
          this.outbox.markDelivered(e, result);
          report.delivered.push({ id: e.id, op: e.op, result });
          this.opts.log?.(`delivered outbox entry ${e.id} (${e.op})`);
        } catch (err) {
          if (err instanceof Unreachable) {
            this.outbox.noteAttempt(e, err.message);
            report.stopped = `cannot reach ${this.url} (${err.message})`;
            break;
          }
          const c = err instanceof CairnError ? err : new CairnError('INTERNAL', String(err));
          const answer = statusOf.get(c);
          if (answer && stopsDelivery(answer.status, answer.challenged)) {
            const { status } = answer;
            // Not about this entry: every entry would meet it. They wait until the token or the rate is right.
            this.outbox.noteAttempt(e, `HTTP ${status} ${c.code}: ${c.message}`);
            report.halted = { status, code: c.code };
            report.stopped = `${this.url} answered HTTP ${status} (${c.code}: ${c.message}); nothing more was sent. ${status === 429 ? 'Wait, then run cairn sync again.' : 'Fix CAIRN_TOKEN, then run cairn sync.'}`;
            break;
          }
          if (c.code === 'BUSY' || c.kind === 'internal') {
            this.outbox.noteAttempt(e, `${c.code}: ${c.message}`);
            report.stopped = `${c.code}: ${c.message}`;
            break;
          }
          this.outbox.markRefused(e, { code: c.code, message: c.message, suggestions: c.suggestions });
          report.refused.push({ id: e.id, op: e.op, error: { code: c.code, message: c.message } });
          this.opts.log?.(`the server refused outbox entry ${e.id} (${e.op}): ${c.code}; kept in ${this.outbox.dir}/refused`);
        }
      }
    } finally {
      unlock();
    }
    report.remaining = this.#queue(retarget).mine.length;
    return report;
  }

  /** Long-running processes (cairn mcp): keep trying while entries wait, backing off to `maxMs`. */
  startAutoFlush(baseMs = 500, maxMs = 5000): void {
    this.#autoBase = baseMs;
    this.#autoMax = maxMs;
    if (this.outbox.hasPending()) this.#schedule();
  }

  #autoBase = 0;
  #autoMax = 0;
  #delay = 0;

  #schedule(): void {
    if (!this.#autoBase || this.#timer || this.#closed) return;
    this.#delay = this.#delay ? Math.min(this.#delay * 2, this.#autoMax) : this.#autoBase;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush().then(
        (r) => {
          if (r.remaining > 0) this.#schedule();
          else this.#delay = 0;
        },
        () => this.#schedule(),
      );
    }, this.#delay);
    this.#timer.unref();
  }

  /** Stops the timer and waits for a delivery in progress. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#flushing?.catch(() => undefined);
  }
}

/** Test hook: CAIRN_OUTBOX_FAULT=pause-after-send stops after the server answered, before the entry is marked (a crash there must not deliver twice). */
async function faultPoint(e: OutboxEntry): Promise<void> {
  if (process.env.CAIRN_OUTBOX_FAULT !== 'pause-after-send') return;
  process.stderr.write(`cairn outbox: paused after sending ${e.id}\n`);
  await new Promise(() => undefined);
}

/** Loads only the entry's op module: the CLI that delivers the outbox has not loaded every op. */
async function opFor(e: OutboxEntry): Promise<Op> {
  const op = await loadOp(e.op);
  if (!op) throw new CairnError('VALIDATION_ERROR', `Outbox entry ${e.id} names unknown operation ${e.op}.`);
  return op;
}

/** The session's default project filled in where the op takes one, as local runs do inside the op. */
function withSessionDefaults(op: Op, raw: Record<string, unknown>, ctx: OpContext): Record<string, unknown> {
  const shape = op.input.shape as Record<string, unknown>;
  const out = { ...raw };
  if (ctx.defaultProject && 'project' in shape && out.project === undefined && out.allProjects !== true) out.project = ctx.defaultProject;
  if (ctx.defaultProject && op.name === 'submit_handoff' && out.from === undefined) out.from = ctx.defaultProject;
  return out;
}

function fillPath(op: Op, args: Record<string, unknown>): { path: string; rest: Record<string, unknown> } {
  const rest = { ...args };
  const path = op.rest.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    const v = rest[name];
    delete rest[name];
    return encodeURIComponent(String(v ?? ''));
  });
  return { path, rest };
}

function appendQuery(url: URL, key: string, v: unknown): void {
  if (v === undefined) return;
  if (Array.isArray(v)) for (const x of v) url.searchParams.append(key, typeof x === 'object' ? JSON.stringify(x) : String(x));
  else url.searchParams.set(key, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
}

const isCairnError = (b: unknown): b is { error: { code: string; message: string; suggestions?: string[]; details?: Record<string, unknown> } } =>
  typeof b === 'object' && b !== null && typeof (b as { error?: { code?: unknown } }).error?.code === 'string';

/** The server's `{error}` as the same CairnError a local run would throw; transport codes (401, 429 …) as the nearest kind. */
function fromServer(status: number, body: unknown, url: string): CairnError {
  if (!isCairnError(body)) return new CairnError('INTERNAL', `The server at ${url} answered HTTP ${status} without a Cairn error body.`);
  const { code, message, suggestions = [], details } = body.error;
  if (code in ERROR_KINDS) return new CairnError(code as ErrorCode, message, { suggestions, ...(details ? { details } : {}) });
  const mapped = coreCodeOf(code, status);
  return new CairnError(mapped, `${code} from ${url}: ${message}`, {
    suggestions: status === 401 ? ['Set CAIRN_TOKEN to a token of that server (cairn token create there)', ...suggestions] : suggestions,
    details: { serverCode: code, status },
  });
}

/** The answer for a write kept in the outbox: submit_handoff's own shape, or the receipt fields for other ops. */
function receipt(op: Op, e: OutboxEntry, url: string, why: string, answeredBefore: boolean): unknown {
  const message = answeredBefore
    ? `The server at ${url} is unreachable (${why}); ${op.name} was recorded in the outbox as ${e.id} and will be delivered exactly once when it is back (cairn sync delivers now). Do not repeat it.`
    : `The server at ${url} has never answered this workspace (${why}): check the address, and that cairn serve runs there (curl ${url}/healthz). ` +
      `${op.name} was recorded in the outbox as ${e.id} and will be delivered exactly once when a server answers there (cairn sync delivers now; cairn outbox lists what waits). Do not repeat it.`;
  if (op.name === 'submit_handoff') {
    const a = e.args as { target?: string; repository?: string };
    return { taskId: null, target: { project: a.target ?? null, repository: a.repository ?? null, workspace: url }, persistedOffline: true, replayed: false, outboxId: e.id, message };
  }
  return { persistedOffline: true, outboxId: e.id, message } satisfies OfflineReceipt;
}

export function isOfflineReceipt(v: unknown): v is OfflineReceipt {
  return typeof v === 'object' && v !== null && (v as OfflineReceipt).persistedOffline === true && typeof (v as OfflineReceipt).outboxId === 'string';
}
