/** Aliases name one project each: an alias (any case) another project holds as alias or key is refused, naming that project. */
import { CairnError } from '../errors.js';
import type { ProjectRow, Tx } from '../ports.js';

/** The project other than `ownUid` that `alias` (any case) names as its key or an alias. */
function holderOf(others: readonly ProjectRow[], alias: string): ProjectRow | undefined {
  const a = alias.toLowerCase();
  return others.find((p) => p.key.toLowerCase() === a || p.aliases.some((x) => x.toLowerCase() === a));
}

/** Splits `aliases` into those free and those another project holds (an import keeps the free ones and says so). */
export async function freeAliases(tx: Tx, aliases: readonly string[], ownUid: string | null): Promise<{ free: string[]; taken: Array<{ alias: string; holder: string }> }> {
  if (aliases.length === 0) return { free: [], taken: [] };
  const others = (await tx.listProjects(true)).filter((p) => p.uid !== ownUid);
  const free: string[] = [];
  const taken: Array<{ alias: string; holder: string }> = [];
  for (const alias of aliases) {
    const holder = holderOf(others, alias);
    if (holder) taken.push({ alias, holder: holder.key });
    else free.push(alias);
  }
  return { free, taken };
}

/** Throws PROJECT_EXISTS when one of `aliases` already names another project than `ownUid` (archived projects count: they still resolve). */
export async function assertAliasesFree(tx: Tx, aliases: readonly string[], ownUid: string | null): Promise<void> {
  await tx.exclusive('projects');
  if (aliases.length === 0) return;
  const others = (await tx.listProjects(true)).filter((p) => p.uid !== ownUid);
  for (const alias of aliases) {
    const holder = holderOf(others, alias);
    if (!holder) continue;
    const as = holder.key.toLowerCase() === alias.toLowerCase() ? 'as its key' : 'as an alias';
    throw new CairnError('PROJECT_EXISTS', `The alias "${alias}" already names project ${holder.key} (${holder.name}) ${as}; an alias can name only one project. Nothing was changed.`, {
      suggestions: [`Pick another alias, or remove "${alias}" from ${holder.key} first: update_project {key: "${holder.key}", aliases: [...]}`],
      details: { alias, project: holder.key },
    });
  }
}
