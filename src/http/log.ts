/**
 * The one logger of `cairn serve` (pino): a JSON object per line on stderr, each with `time`,
 * `level`, `replica` and, inside a request, its id (`req`), so an operator can follow one request
 * across the access log, a tool error and an internal error. On a terminal the lines are short and
 * readable instead. Secrets never reach it: tokens are logged by name, URLs with passwords masked.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';
import { CairnError } from '../core/errors.js';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const requestIds = new AsyncLocalStorage<string>();

/** Runs a request's handling with its id in scope: every line logged meanwhile carries it. */
export function withRequestId<T>(id: string, fn: () => T): T {
  return requestIds.run(id, fn);
}

export function parseLogLevel(text: string, from: string): LogLevel {
  const level = text.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new CairnError('VALIDATION_ERROR', `${from} must be one of ${LOG_LEVELS.join(', ')}, not "${text}". The server did not start.`, {
    suggestions: [`${from === '--log-level' ? '--log-level ' : `${from}=`}debug`],
  });
}

const LABELS: Record<string, string> = { trace: 'TRACE', debug: 'DEBUG', info: 'INFO ', warn: 'WARN ', error: 'ERROR', fatal: 'FATAL' };

/** A terminal's line: the time of day, the level, the message, then the other fields as key=value. */
function pretty(line: string): string {
  const { time, level, msg, replica: _replica, ...rest } = JSON.parse(line) as Record<string, unknown>;
  const fields = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${String(time).slice(11, 19)} ${LABELS[String(level)] ?? String(level)} ${String(msg ?? '')}${fields.length ? `  ${fields.join(' ')}` : ''}\n`;
}

export function createLogger(o: { replica: string; level?: LogLevel; destination?: DestinationStream; pretty?: boolean }): Logger {
  const destination = o.destination ?? { write: (line: string) => void process.stderr.write(o.pretty ? pretty(line) : line) };
  return pino(
    {
      level: o.level ?? 'info',
      base: { replica: o.replica },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const req = requestIds.getStore();
        return req ? { req } : {};
      },
    },
    destination,
  );
}

/**
 * The logger code without one at hand reports to (an internal error found while answering): the
 * server's once it has started, else a plain JSON one.
 */
let current: Logger | undefined;

export function serverLog(): Logger {
  return (current ??= createLogger({ replica: 'cairn' }));
}

export function setServerLog(logger: Logger): void {
  current = logger;
}
