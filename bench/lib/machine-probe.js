// How fast this machine is right now, in the three ways the sections depend on it: CPU (in-process
// sections), a round trip through a child's stdio pipes (MCP, HTTP and the peers: wake-ups on both
// sides), and spawning bare Node (the CLI and start-up rows). Shared two-core machines drift by 10–25%
// between spells; the regression check shows the probe's ratio beside each flagged figure, so a figure
// that moved with the machine reads differently from one that moved alone. Nothing Cairn runs here.
import { execFileSync, spawn } from 'node:child_process';
import { percentile } from './stats.js';

const median = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/** Milliseconds for a fixed piece of JavaScript: sorting 50,000 numbers from a fixed seed (median of 15). */
function cpuMs() {
  const times = [];
  for (let r = 0; r < 18; r++) {
    let s = 42;
    const xs = Array.from({ length: 50_000 }, () => (s = (s * 1103515245 + 12345) & 0x7fffffff));
    const t0 = performance.now();
    xs.sort((a, b) => a - b);
    times.push(performance.now() - t0);
  }
  return median(times.slice(3));
}

/** Milliseconds for one line to a child Node echoing its stdin and back (median of 1,000, after 100). */
async function pipeMs() {
  const child = spawn(process.execPath, ['-e', "process.stdin.on('data', (d) => process.stdout.write(d))"], { stdio: ['pipe', 'pipe', 'ignore'] });
  const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(64) } })}\n`;
  const times = [];
  try {
    for (let i = 0; i < 1100; i++) {
      const t0 = performance.now();
      await new Promise((resolve) => {
        let got = 0;
        const onData = (d) => {
          got += d.length;
          if (got >= line.length) {
            child.stdout.off('data', onData);
            resolve();
          }
        };
        child.stdout.on('data', onData);
        child.stdin.write(line);
      });
      if (i >= 100) times.push(performance.now() - t0);
    }
  } finally {
    child.kill();
  }
  return median(times);
}

/** Milliseconds to spawn `node -e 0` and see it exit (median of 9, after 2). */
function spawnMs() {
  const times = [];
  for (let i = 0; i < 11; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    if (i >= 2) times.push(performance.now() - t0);
  }
  return median(times);
}

/** The machine's speed now: { cpu, pipe, spawn } in ms, lower is faster. */
export async function machineProbe() {
  return { cpu: cpuMs(), pipe: await pipeMs(), spawn: spawnMs() };
}
