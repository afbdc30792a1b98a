/** Loads an adapter module on demand, so the CLI starts fast and builds before that module exists. */

/**
 * How a module outside the CLI is imported. bin/cairn.js runs the CLI bundle (dist/cli/cairn.cjs) as
 * a script, which cannot `import()` without Node's experimental vm loader hook (it warns on stderr,
 * and fails once the script comes from a code cache), so the bin hands in its own `import()`.
 */
let importer = (url: string): Promise<unknown> => import(url);

/** Sets how modules outside the CLI are imported (bin/cairn.js). */
export function useImporter(fn: (url: string) => Promise<unknown>): void {
  importer = fn;
}

/**
 * Imports `specifier` (relative to this file, i.e. dist/cli/). The specifier is a variable, so
 * TypeScript does not need the module at compile time; a missing module is a clear error. It is made
 * absolute first, for the bin's importer to resolve it as this file would.
 */
export async function loadModule<T>(specifier: string, feature: string): Promise<T> {
  try {
    return (await importer(specifier.startsWith('.') ? new URL(specifier, import.meta.url).href : specifier)) as T;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const file = specifier.split('/').pop() ?? specifier;
    if (e.code === 'ERR_MODULE_NOT_FOUND' && e.message?.includes(file)) {
      // Imported here: `cairn mcp` loads its server through this function and should load no more than it needs first.
      const { CairnError } = await import('../core/errors.js');
      throw new CairnError('INTERNAL', `${feature} is not available in this build: ${specifier.replace(/^\.\.\//, 'src/').replace(/\.js$/, '.ts')} is missing.`, {
        suggestions: ['npm run build', 'Update Cairn to a version that includes it'],
        details: { missingModule: specifier },
      });
    }
    throw err;
  }
}
