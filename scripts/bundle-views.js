// Builds the MCP Apps views (src/web/apps) into one self-contained page, dist/apps/view.html: script
// and styles inline, since a view runs in a sandbox with no network. The route table that turns the
// board's REST calls into tool calls comes from the ops' own REST bindings. Run after tsc.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const esbuild = await import('esbuild').catch(() => undefined);
if (!esbuild) {
  console.warn('bundle-views: esbuild is not installed; the MCP Apps views are not built');
  process.exit(0);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const { OPS } = await import(join(root, 'dist/ops/index.js'));
const { listShapeOf, SUMMARY_EXTRAS, ROW_OMITS } = await import(join(root, 'dist/mcp/detail-fields.js'));

const routes = OPS.map((op) => ({ method: op.rest.method, path: op.rest.path, tool: op.name, ...(listShapeOf(op) ? { rows: listShapeOf(op) } : {}) }));

const out = await esbuild.build({
  entryPoints: [join(root, 'src/web/apps/main.tsx')],
  bundle: true,
  write: false,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  define: { __CAIRN_ROUTES__: JSON.stringify(routes), __CAIRN_ROWS__: JSON.stringify({ extras: SUMMARY_EXTRAS, omits: ROW_OMITS }) },
  logLevel: 'warning',
});
const script = out.outputFiles[0].text.replaceAll('</script', '<\\/script');
const styles = readFileSync(join(root, 'src/web/styles.css'), 'utf8') + readFileSync(join(root, 'src/web/apps/view.css'), 'utf8');
const page = readFileSync(join(root, 'src/web/apps/view.html'), 'utf8')
  .replace('/*CAIRN_STYLES*/', () => styles)
  .replace('/*CAIRN_SCRIPT*/', () => script);
mkdirSync(join(root, 'dist/apps'), { recursive: true });
writeFileSync(join(root, 'dist/apps/view.html'), page);
