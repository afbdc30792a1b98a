/** DevPlanner's three resources (seed 004): the project list, a project's full board, one card. JSON, read through the native ops. */
import type { ProfileResource } from '../profile.js';
import { cardSummary, fullCard } from './cards.js';
import { allCards, getCardTask, projectSlugOf, projectSummary, resolveProject } from './projects.js';

const body = (value: unknown) => ({ text: JSON.stringify(value, null, 2), mimeType: 'application/json' });

const projects: ProfileResource = {
  name: 'projects',
  title: 'DevPlanner projects',
  description: 'List of all projects with summary information.',
  uri: 'devplanner://projects',
  async read(call) {
    const { projects: list } = await call.op('list_projects', {});
    const out = [];
    for (const p of list) {
      const { slug, name, description, cardCounts, archived } = await projectSummary(call, p);
      out.push({ slug, name, description, cardCounts, archived });
    }
    return body({ projects: out });
  },
};

const project: ProfileResource = {
  name: 'project',
  title: 'DevPlanner project board',
  description: 'Full board state for a single project including all cards in all lanes.',
  uri: 'devplanner://projects/{slug}',
  async list(call) {
    const { projects: list } = await call.op('list_projects', {});
    return list.map((p) => ({ uri: `devplanner://projects/${projectSlugOf(p)}`, name: p.name }));
  },
  async read(call, vars) {
    const p = await resolveProject(call, decodeURIComponent(vars.slug ?? ''));
    const cards = await allCards(call, p);
    const lanes = Object.fromEntries(p.statuses.map((s) => [s.name, { displayName: s.displayName, cards: cards.filter((c) => c.status === s.name).map(cardSummary) }]));
    return body({ project: { slug: projectSlugOf(p), name: p.name, description: p.description }, lanes });
  },
};

const card: ProfileResource = {
  name: 'card',
  title: 'DevPlanner card',
  description: 'Full details of a single card including content and tasks.',
  uri: 'devplanner://projects/{slug}/cards/{cardSlug}',
  async read(call, vars) {
    const p = await resolveProject(call, decodeURIComponent(vars.slug ?? ''));
    return body(fullCard(await getCardTask(call, p, decodeURIComponent(vars.cardSlug ?? ''))));
  },
};

export const devplannerResources: readonly ProfileResource[] = [projects, project, card];
