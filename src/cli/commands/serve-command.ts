/** `cairn serve`: the HTTP service (REST, MCP over HTTP, board), implemented in src/http/main.ts and loaded only when asked for. */
import type { Command } from 'commander';
import { CairnError } from '../../core/errors.js';
import { loadModule } from '../load-module.js';

/** The server module's own signature: loaded at run time (start-up), checked at compile time. */
type HttpMain = typeof import('../../http/main.js');

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CairnError('VALIDATION_ERROR', `--port must be a whole number from 0 to 65535, not "${text}".`, { suggestions: ['cairn serve --port 7420'] });
  }
  return port;
}

export function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the HTTP service: REST API, MCP over HTTP, live board')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on', '7420')
    .option('--metrics', 'serve Prometheus metrics at /metrics (on by default beyond loopback; also CAIRN_METRICS=1)')
    .option('--log-level <level>', 'fatal, error, warn, info (default), debug, trace or silent; also CAIRN_LOG_LEVEL')
    .addHelpText('after', '\nExamples:\n  cairn serve\n  cairn serve --port 8080 --db ~/work/.cairn/cairn.db\n  cairn serve --metrics   # /metrics for Prometheus; /livez and /readyz always')
    .action(async (_opts: unknown, cmd: Command) => {
      const o = cmd.optsWithGlobals<{ db?: string; host: string; port: string; metrics?: boolean; logLevel?: string }>();
      const port = parsePort(o.port);
      const m = await loadModule<HttpMain>('../http/main.js', 'cairn serve');
      const logLevel = o.logLevel === undefined ? undefined : m.parseLogLevel(o.logLevel, '--log-level');
      await m.runServe({ host: o.host, port, db: o.db, ...(o.metrics ? { metrics: true } : {}), ...(logLevel ? { logLevel } : {}) });
    });
}
