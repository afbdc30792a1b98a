/**
 * Where this package is installed and its version. Found by walking up from this module to the
 * nearest package.json, so it holds from tsc's dist/ tree and from a bundle or chunk alike, at any depth.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: { root: string; version: string } | undefined;

export function packageInfo(): { root: string; version: string } {
  if (found) return found;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version?: string; bin?: Record<string, string> };
      // dist/ may hold a package.json of its own one day (e.g. {"type":"module"}); the package's has the bin.
      if (pkg.bin?.cairn) return (found = { root: dir, version: pkg.version ?? '0.0.0' });
    }
    if (dirname(dir) === dir) throw new Error(`package.json of Cairn not found above ${fileURLToPath(import.meta.url)}`);
  }
}
