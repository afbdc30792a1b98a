// The benchmark sections `npm run bench` runs, in order. To add one (e.g. MCP over stdio, HTTP), write
// bench/<name>.js exporting `section` (see core.js for the contract) and add a line here.
export const SECTIONS = {
  core: () => import('./core.js'),
  mcp: () => import('./mcp.js'),
  http: () => import('./http.js'),
  footprint: () => import('./footprint.js'),
  cli: () => import('./cli.js'),
  profiles: () => import('./profiles.js'),
  transfer: () => import('./transfer.js'),
  postgres: () => import('./postgres.js'),
  links: () => import('./links.js'),
  invariants: () => import('./invariants.js'),
  peers: () => import('./peers.js'),
};

/** Sections measured at one size only (the workspace size does not change what they measure); the rest run at every size asked for. */
export const ONLY_AT = { invariants: [1000], links: [1000], peers: [1000] };
