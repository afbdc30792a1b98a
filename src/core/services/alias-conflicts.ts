/** Aliases name one project each: an alias (any case) another project holds as alias or key is refused, naming that project. */
import { CairnError } from '../errors.js';
import type { Tx } from '../ports.js';

/** Throws PROJECT_EXISTS when one of `aliases` already names another project than `ownUid` (archived projects count: they still resolve). */
export async function assertAliasesFree(tx: Tx, aliases: readonly string[], ownUid: string | null): Promise<void> {
  await tx.exclusive('projects');
  if (aliases.length === 0) return;
  const others = (await tx.listProjects(true)).filter((p) => p.uid !== ownUid);
  for (const alias of aliases) {
    const a = alias.toLowerCase();
    const holder = others.find((p) => p.key.toLowerCase() === a || p.aliases.some((x) => x.toLowerCase() === a));
    if (!holder) continue;
    const as = holder.key.toLowerCase() === a ? 'as its key' : 'as an alias';
    throw new CairnError('PROJECT_EXISTS', `The alias "${alias}" already names project ${holder.key} (${holder.name}) ${as}; an alias can name only one project. Nothing was changed.`, {
      suggestions: [`Pick another alias, or remove "${alias}" from ${holder.key} first: update_project {key: "${holder.key}", aliases: [...]}`],
      details: { alias, project: holder.key },
    });
  }
}
