// Starts `cairn serve --port 0` in a child process and resolves with its URL, read from the
// server's startup log line; shared by the conformance run and the HTTP benchmark.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cairn.js');

/** @returns {Promise<{ child: import('node:child_process').ChildProcess, url: string }>} */
export function startServe(db, env = {}) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--db', db], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CAIRN_ACCESS_LOG: '0', ...env },
  });
  return new Promise((ok, fail) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /"url":"(http:\/\/[^"]+)"/.exec(err);
      if (m) ok({ child, url: m[1] });
    });
    child.once('exit', (code) => fail(new Error(`cairn serve exited (${code}): ${err}`)));
  });
}
