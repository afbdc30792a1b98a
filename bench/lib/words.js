// Vocabulary for generated tasks: titles read like a real tracker's, descriptions follow a Zipf-like word mix so search has common and rare terms.

export const PROJECTS = [
  { key: 'API', name: 'Public API' },
  { key: 'WEB', name: 'Web app' },
  { key: 'CORE', name: 'Core engine' },
  { key: 'OPS', name: 'Operations' },
  { key: 'DOCS', name: 'Documentation' },
  { key: 'MOB', name: 'Mobile client' },
];

export const LABELS = [
  'backend',
  'frontend',
  'bug',
  'security',
  'perf',
  'docs',
  'infra',
  'api',
  'db',
  'ui',
  'testing',
  'refactor',
  'mcp',
  'cli',
  'auth',
  'search',
  'tech-debt',
  'customer',
  'regression',
  'good-first-issue',
];

export const ACTORS = ['alice', 'bob', 'carol', 'agent:claude-1', 'agent:claude-2', 'agent:codex-1'];

export const VERBS = [
  'Fix',
  'Add',
  'Remove',
  'Refactor',
  'Document',
  'Investigate',
  'Speed up',
  'Migrate',
  'Validate',
  'Cache',
  'Retry',
  'Log',
  'Test',
  'Rename',
  'Split',
  'Deprecate',
  'Support',
  'Harden',
  'Paginate',
  'Batch',
];

export const NOUNS = [
  'token refresh',
  'login flow',
  'rate limiter',
  'webhook delivery',
  'session store',
  'search index',
  'export job',
  'import wizard',
  'billing report',
  'invoice pdf',
  'audit log',
  'user settings',
  'password reset',
  'email digest',
  'upload handler',
  'image resizer',
  'query planner',
  'connection pool',
  'retry queue',
  'feature flags',
  'permission check',
  'onboarding checklist',
  'dark mode',
  'keyboard shortcuts',
  'notification center',
  'background worker',
  'schema migration',
  'backup restore',
  'metrics dashboard',
  'error boundary',
  'cursor pagination',
  'bulk update',
  'csv parser',
  'timezone handling',
  'locale fallback',
  'cache invalidation',
  'websocket reconnect',
  'oauth callback',
  'api gateway',
  'graphql resolver',
  'sitemap generator',
  'crash reporter',
  'deploy pipeline',
  'health check',
  'config loader',
  'secret rotation',
  'tenant isolation',
  'usage quota',
];

export const PLACES = [
  'in the admin panel',
  'for enterprise tenants',
  'on mobile Safari',
  'under heavy load',
  'in the CLI',
  'for the MCP server',
  'on first run',
  'after upgrade',
  'behind the proxy',
  'in staging',
  'for large workspaces',
  'when offline',
  'on Windows',
  'in the REST API',
  'during import',
  '',
];

/** Description vocabulary, most frequent first (sampled Zipf-like). */
export const TEXT = `the a to of and in is for that it with on this when we be should as request response user error
data server client value field cache query table index file page list item config test build update change
return call handler timeout retry state session token event queue job worker service endpoint payload schema
version release branch commit review merge deploy rollback latency memory thread lock transaction batch stream
parse validate encode decode serialize migrate render layout button modal dropdown tooltip keyboard focus scroll
accessibility contrast locale timezone currency invoice billing subscription plan quota limit throttle backoff
jitter idempotent webhook signature hmac oauth saml scim tenant workspace project board lane label priority
checklist comment mention notification digest email template markdown attachment upload thumbnail preview resize
postgres sqlite redis kafka nginx docker kubernetes terraform helm grafana prometheus sentry opentelemetry
flaky regression deadlock race leak overflow underflow panic segfault corruption truncation off-by-one
staging production canary feature-flag rollout experiment metric dashboard alert pager runbook incident postmortem
customer enterprise onboarding trial churn retention cohort funnel conversion analytics export import csv json yaml
protobuf grpc graphql rest websocket sse polling long-polling heartbeat lease claim ownership handoff agent
refactor cleanup deprecate rename extract inline split merge simplify document clarify explain benchmark profile
zebra quokka narwhal axolotl pangolin okapi tapir wombat capybara ocelot`
  .split(/\s+/)
  .filter(Boolean);

/**
 * The long tail real descriptions have: identifiers, file names and error codes, each rare. Built
 * from syllables so it is deterministic; appended after TEXT, so Zipf sampling reaches it rarely.
 */
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'pu', 'ra', 'si', 'to', 'vu', 'ze', 'bri', 'cor', 'dan', 'fel', 'gur', 'hax'];
const KINDS_OF_NAME = ['Handler', 'Service', 'Store', 'Client', 'Parser', 'Worker', 'Config', 'View'];
export const TAIL = [];
for (const a of SYLLABLES) for (const b of SYLLABLES) for (const k of KINDS_OF_NAME) TAIL.push(`${a}${b}${k}`);
for (let i = 0; i < 2000; i++) TAIL.push(`E${1000 + i * 7}`);
export const VOCABULARY = [...TEXT, ...TAIL];

export const COMMENT_OPENERS = [
  'Looked into this:',
  'Repro steps:',
  'I think the cause is',
  'Plan:',
  'Implemented in the branch,',
  'Research notes:',
  'Blocked on review;',
  'Confirmed on staging:',
  'Customer reported again:',
  'Left a note in the runbook:',
];

export const CHECKLIST = [
  'Write a failing test',
  'Fix the bug',
  'Update the docs',
  'Add a migration',
  'Review with the team',
  'Deploy to staging',
  'Check metrics after rollout',
  'Remove the feature flag',
  'Update the changelog',
  'Ping the customer',
];
