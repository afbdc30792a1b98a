// Node 20 lacks fs.globSync, which @modelcontextprotocol/conformance 0.1.16 imports by name. Loaded with
// `node --import ./scripts/node20-globsync.mjs`, this registers a resolve hook that hands that package an
// `fs` with a small globSync added (enough for its `**/checks.json` lookups). A no-op where Node has it.
import fs from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && typeof fs.globSync !== 'function') register(import.meta.url);

const FS_WITH_GLOB = `
import fs from 'node:fs';
import path from 'node:path';
export * from 'node:fs';
export default fs;
const toRegExp = (glob) => new RegExp('^' + glob.split('/').map((part) => part === '**' ? '(?:.*/)?' : part.replace(/[.+^$()|{}\\[\\]\\\\]/g, '\\\\$&').replace(/\\*/g, '[^/]*').replace(/\\?/g, '[^/]') + '/').join('').replace(/\\(\\?:\\.\\*\\/\\)\\?\\/?/g, '(?:.*/)?').replace(/\\/$/, '') + '$');
export function globSync(pattern, options = {}) {
  const cwd = options.cwd ?? process.cwd();
  const re = toRegExp(String(pattern));
  const out = [];
  for (const entry of fs.readdirSync(cwd, { recursive: true })) {
    const rel = String(entry).split(path.sep).join('/');
    if (re.test(rel)) out.push(rel);
  }
  return out;
}
`;

export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: `data:text/javascript,${encodeURIComponent(FS_WITH_GLOB)}`, shortCircuit: true };
  }
  return next(specifier, context);
}
