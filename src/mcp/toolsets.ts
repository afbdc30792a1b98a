/** Which ops become MCP tools: toolset selection (default, named, `all`) and read-only filtering, in one place. */
import { CairnError } from '../core/errors.js';
import { DEFAULT_TOOLSETS, OPS, TOOLSETS, type Op, type Toolset } from '../ops/index.js';

/** Parses "tasks,projects" / "all" / "default" (case-insensitive; blanks ignored). Unknown names are refused. */
export function parseToolsets(spec: string | readonly string[] | undefined): Toolset[] {
  const parts = (typeof spec === 'string' ? spec.split(',') : [...(spec ?? [])]).map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (parts.length === 0) return [...DEFAULT_TOOLSETS];
  const out = new Set<Toolset>();
  for (const p of parts) {
    if (p === 'all') TOOLSETS.forEach((t) => out.add(t));
    else if (p === 'default') DEFAULT_TOOLSETS.forEach((t) => out.add(t));
    else if ((TOOLSETS as readonly string[]).includes(p)) out.add(p as Toolset);
    else {
      throw new CairnError('VALIDATION_ERROR', `Unknown toolset "${p}". Known toolsets: ${TOOLSETS.join(', ')}, default, all.`, {
        suggestions: [`--toolsets ${DEFAULT_TOOLSETS.join(',')},history`, '--toolsets all'],
      });
    }
  }
  return TOOLSETS.filter((t) => out.has(t));
}

/** The ops served as tools: in a chosen toolset, and read-only ones only when the server is read-only. */
export function selectOps(toolsets: readonly Toolset[], readOnly: boolean): Op[] {
  return (OPS as readonly Op[]).filter((op) => toolsets.includes(op.toolset) && (!readOnly || op.readOnly));
}
