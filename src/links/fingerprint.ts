/**
 * The hash of a record's source-held fields, in the source's own terms. A sync stores it per record;
 * a record whose hash did not move is left alone on a pull, and a task whose hash did not move is not
 * written back on a push (its change was Cairn's own data: a claim, a comment).
 */
import type { Held, LinkSource } from './source.js';
import { nodeCrypto } from '../core/lazy-builtins.js';

/** The held fields of an incoming record (an import item) in one shape. */
export function heldOfRecord(t: {
  title: string;
  description: string;
  status: string;
  kind: Held['kind'];
  priority: Held['priority'];
  labels: string[];
  assignee: string | null;
  substatus: string | null;
  slug: string | null;
  links: Held['links'];
  closeReason: string | null;
  checklist: Held['checklist'];
  parent: string | null;
  blockedBy: Array<{ ref: string }>;
}): Held {
  return {
    title: t.title,
    description: t.description,
    status: t.status,
    kind: t.kind,
    priority: t.priority,
    labels: [...t.labels].sort(),
    assignee: t.assignee,
    substatus: t.substatus,
    slug: t.slug,
    links: t.links,
    closeReason: t.closeReason,
    checklist: t.checklist.map((i) => ({ text: i.text, checked: i.checked })),
    parent: t.parent,
    blockedBy: t.blockedBy.map((b) => b.ref).sort(),
  };
}

/** Only the fields this source holds, as it would store them, in a fixed key order. */
export function heldView(source: Pick<LinkSource, 'fields' | 'view'>, held: Held): Record<string, unknown> {
  const v = source.view(held);
  const out: Record<string, unknown> = {};
  for (const f of source.fields) out[f] = f === 'links' ? sortKeys(v.links) : v[f];
  return out;
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

export function fingerprint(source: Pick<LinkSource, 'fields' | 'view'>, held: Held): string {
  return nodeCrypto()
    .createHash('sha1')
    .update(JSON.stringify(heldView(source, held)))
    .digest('base64url')
    .slice(0, 22);
}

/** The held fields whose values differ between two records, in the source's terms. */
export function changedFields(source: Pick<LinkSource, 'fields' | 'view'>, a: Held, b: Held): string[] {
  const va = heldView(source, a);
  const vb = heldView(source, b);
  return source.fields.filter((f) => JSON.stringify(va[f]) !== JSON.stringify(vb[f]));
}
