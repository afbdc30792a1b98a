// Runs one benchmark section against one workspace size in its own process, so each section's peak RSS
// and warm caches are its own. Prints the section's result as one JSON line on stdout.
//   node --expose-gc bench/lib/run-section.js <section> <size>
import os from 'node:os';
import { SECTIONS } from '../sections.js';
import { peakRssMb } from './stats.js';
import { freshWorkspace } from './workspace.js';

const [name, sizeArg] = process.argv.slice(2);
const loadSection = SECTIONS[name];
if (!loadSection || !Number(sizeArg)) {
  console.error(`usage: run-section.js <${Object.keys(SECTIONS).join('|')}> <size>`);
  process.exit(1);
}
const size = Number(sizeArg);
const ws = freshWorkspace(size);
try {
  const { section } = await loadSection();
  const log = (msg) => process.stderr.write(`  [${name} ${size}] ${msg}\n`);
  const load0 = os.loadavg()[0];
  const result = await section.run({ size, db: ws.db, dir: ws.dir, log });
  // Other work on the machine skews wall times; say how busy it was.
  const load = `load average ${load0.toFixed(1)} at start, ${os.loadavg()[0].toFixed(1)} at end (${os.cpus().length} cores)`;
  process.stdout.write(JSON.stringify({ ...result, notes: [...(result.notes ?? []), load], processPeakRssMb: peakRssMb() }) + '\n');
} finally {
  ws.cleanup();
}
