/** Views for linked sources: `cairn link`, `cairn unlink`, `cairn links`. */
import type { LinkView } from '../../core/services/links.js';
import type { RenderEnv } from './render-env.js';
import { table } from './table.js';
import { humanTime } from './time.js';

const stateCell = (l: LinkView) => ({ text: l.state, style: l.state === 'in sync' ? ('green' as const) : l.state === 'behind' ? ('yellow' as const) : ('red' as const) });

function problems(l: LinkView, env: RenderEnv): string[] {
  const out = l.warnings.map((w) => `  ${env.paint('yellow', '!')} ${w}`);
  for (const w of l.lost)
    out.push(`  ${env.paint('red', '!')} ${w.task}: ${w.fields.join(', ')} written by Cairn at ${humanTime(w.at)} was overwritten by the source's owner; its history keeps what was written`);
  return out;
}

export function linkView(out: { link: LinkView }, env: RenderEnv): string {
  const l = out.link;
  const lines = [
    `${env.verb ?? 'Linked'} ${env.paint('bold', l.path)} (${l.kind}${l.writable ? '' : ', read-only'})`,
    `  ${l.records} records in ${l.projects.length ? l.projects.join(', ') : 'no project yet'} · ${env.paint(stateCell(l).style, l.state)}`,
    ...problems(l, env),
  ];
  return lines.join('\n');
}

export function unlinkedView(out: { unlinked: LinkView }, env: RenderEnv): string {
  const l = out.unlinked;
  return `${env.paint('bold', 'Unlinked')} ${l.path}: ${l.projects.length ? `${l.projects.join(', ')} keep their ${l.records} tasks` : 'it fed no project'}; the source was not touched.`;
}

export function linksView(out: { links: LinkView[] }, env: RenderEnv): string {
  if (!out.links.length) return env.paint('dim', 'No linked sources. Link one: cairn link PATH');
  const rows = out.links.map((l) => [l.path, l.kind + (l.writable ? '' : ' (read-only)'), l.projects.join(', ') || '-', String(l.records), stateCell(l)]);
  const extra = out.links.flatMap((l) => (l.warnings.length || l.lost.length ? [`${l.path}:`, ...problems(l, env)] : []));
  return [table(['PATH', 'KIND', 'PROJECTS', 'RECORDS', 'STATE'], rows, { paint: env.paint, width: env.width, flex: 0 }), ...extra].join('\n');
}

/** check_paths: each path held by another agent's live claim, then the free ones (naming your own claim's task where it reserves one). */
export function pathsView(
  out: { held: Array<{ path: string; reserved: string; task: string; holder: string; expiresAt: string }>; free: string[]; yours?: Array<{ path: string; task: string }> },
  env: RenderEnv,
): string {
  const lines = out.held.map((h) => `${env.paint('yellow', 'held')}  ${h.path}  ${env.paint('dim', `${h.reserved} · ${h.task} · ${h.holder} until ${h.expiresAt}`)}`);
  const mine = (p: string) => [...new Set((out.yours ?? []).filter((y) => y.path === p).map((y) => y.task))];
  lines.push(...out.free.map((p) => `${env.paint('green', 'free')}  ${p}${mine(p).length ? `  ${env.paint('dim', `yours: ${mine(p).join(', ')}`)}` : ''}`));
  return lines.join('\n');
}
