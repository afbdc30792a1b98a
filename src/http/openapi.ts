/** The OpenAPI 3.1 document, generated from the same op declarations and zod schemas as the routes themselves. */
import * as z from 'zod';
import { HTTP_ONLY_CODES } from './http-errors.js';
import { OPS, type Op } from '../ops/index.js';
import { ERROR_KINDS } from '../core/errors.js';
import { API_PREFIX } from './rest-routes.js';
import { inputJsonSchema, pathParams } from './rest-input.js';
import { successStatus } from './rest-conventions.js';

type Schema = Record<string, unknown>;

/** JSON Schema 2020-12 is OpenAPI 3.1's dialect; only the per-document `$schema` marker has to go. */
function clean(s: Schema): Schema {
  const { $schema: _s, ...rest } = s;
  return rest;
}

function outputSchema(op: Op): Schema {
  return clean(z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }) as Schema);
}

const errorRef = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

function operation(op: Op): Schema {
  const input = inputJsonSchema(op) as Schema & { properties: Record<string, Schema>; required?: string[] };
  const inPath = pathParams(op.rest.path);
  const required = new Set(input.required ?? []);
  const parameters: Schema[] = inPath.map((name) => ({ name, in: 'path', required: true, schema: input.properties[name] ?? { type: 'string' } }));
  let requestBody: Schema | undefined;
  const rest = Object.entries(input.properties).filter(([k]) => !inPath.includes(k));
  if (op.rest.method === 'GET' || op.rest.method === 'DELETE') {
    for (const [name, schema] of rest) {
      const isArray = JSON.stringify(schema).includes('"type":"array"');
      parameters.push({
        name,
        in: 'query',
        required: required.has(name) && !('default' in schema),
        ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
        schema,
        ...(isArray ? { style: 'form', explode: true } : {}),
      });
    }
  } else {
    const body: Schema = { ...clean(input), properties: Object.fromEntries(rest) };
    const req = [...required].filter((k) => !inPath.includes(k));
    if (req.length) body.required = req;
    else delete body.required;
    requestBody = { required: req.length > 0, content: { 'application/json': { schema: body } } };
  }
  const ok = String(successStatus(op));
  const outShape = op.output instanceof z.ZodObject ? (op.output.shape as Record<string, unknown>) : {};
  const tagged = 'task' in outShape || 'project' in outShape;
  // If-Match applies where a PATCH or DELETE names one task or project (rest-conventions.ts).
  const preconditions = (op.rest.method === 'PATCH' || op.rest.method === 'DELETE') && /:(id|taskId|key)\b/.test(op.rest.path);
  if (preconditions) parameters.push({ name: 'If-Match', in: 'header', required: false, description: 'The ETag you read; 412 if the resource changed since', schema: { type: 'string' } });
  const hasBody = op.rest.method === 'POST' || op.rest.method === 'PATCH';
  const headers: Schema = {
    ...(tagged ? { ETag: { description: 'The task\'s version ("v7") or a digest of the project; send it back in If-Match', schema: { type: 'string' } } } : {}),
    ...(ok === '201' ? { Location: { description: 'Where the created resource is read', schema: { type: 'string' } } } : {}),
  };
  return {
    operationId: op.name,
    summary: op.title,
    description: op.description,
    tags: [op.toolset],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    'x-cairn-read-only': op.readOnly,
    ...(op.readOnly ? {} : { security: [{ bearer: ['write'] }, {}] }),
    responses: {
      [ok]: { description: op.title, ...(Object.keys(headers).length ? { headers } : {}), content: { 'application/json': { schema: outputSchema(op) } } },
      '400': errorRef('Invalid arguments (VALIDATION_ERROR and friends)'),
      '401': errorRef('Missing or invalid bearer token'),
      '403': errorRef(
        op.readOnly
          ? 'Forbidden: a refused Host/Origin, or acting as another actor without an admin token'
          : 'Forbidden: a read token on a write, a refused Host/Origin, or acting as another actor without an admin token',
      ),
      '404': errorRef('Task, project or route not found'),
      ...(op.readOnly ? {} : { '409': errorRef('Conflict: version, claim, cycle, existing project') }),
      ...(preconditions ? { '412': errorRef('If-Match did not match: the resource changed since you read it') } : {}),
      ...(hasBody ? { '413': errorRef('Body too large'), '415': errorRef('The body is not Content-Type: application/json') } : {}),
      '429': errorRef('Rate limited; see Retry-After'),
      '500': errorRef('Internal error (a bug)'),
      '503': errorRef('Workspace busy; retry'),
      ...(op.readOnly ? {} : { '507': errorRef('The disk is full; nothing was written') }),
    },
  };
}

/** Builds the document; the same op list drives the routes, so every op has exactly one path. */
export function buildOpenApi(version: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const op of OPS as readonly Op[]) {
    const p = API_PREFIX + op.rest.path.replace(/:([A-Za-z]+)/g, '{$1}');
    (paths[p] ??= {})[op.rest.method.toLowerCase()] = operation(op);
  }
  paths[`${API_PREFIX}/events`] = {
    get: {
      operationId: 'events',
      summary: 'Activity feed (server-sent events)',
      description:
        'Each event: id = activity seq, data = the ActivityEvent JSON. Reconnect with Last-Event-ID (or ?since=) to resume without loss. A first `ready` event carries the current position.',
      tags: ['events'],
      parameters: [
        { name: 'project', in: 'query', required: false, schema: { type: 'string' }, description: 'Only events of this project (key or alias)' },
        { name: 'since', in: 'query', required: false, schema: { type: 'integer', minimum: 0 }, description: 'Replay events after this seq (like Last-Event-ID)' },
        { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'An endless text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        '400': errorRef('Bad since / Last-Event-ID'),
        '404': errorRef('Unknown project'),
      },
    },
  };
  paths['/healthz'] = {
    get: {
      operationId: 'healthz',
      summary: 'Up and the database answering (503 while it does not)',
      security: [{}],
      responses: {
        '200': {
          description: 'Up',
          content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ok' }, version: { type: 'string' } }, required: ['status', 'version'] } } },
        },
        '503': { description: 'The database does not answer' },
      },
    },
  };
  const probe = {
    type: 'object',
    properties: { status: { type: 'string' }, version: { type: 'string' }, replica: { type: 'string' }, uptimeS: { type: 'integer' } },
    required: ['status', 'version', 'replica', 'uptimeS'],
  };
  paths['/livez'] = {
    get: {
      operationId: 'livez',
      summary: 'The process answers (never asks the database)',
      security: [{}],
      responses: { '200': { description: 'Alive', content: { 'application/json': { schema: probe } } } },
    },
  };
  paths['/readyz'] = {
    get: {
      operationId: 'readyz',
      summary: 'Ready to serve: database reachable, schema current, change feed listening; with schema version, engine and pool',
      security: [{}],
      responses: { '200': { description: 'Ready', content: { 'application/json': { schema: probe } } }, '503': { description: 'Not ready: `checks` says which check failed' } },
    },
  };
  paths['/metrics'] = {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics (cairn serve --metrics); a metrics or admin token once the workspace has tokens',
      responses: {
        '200': { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } },
        '403': errorRef('A token of another scope'),
        '404': errorRef('Metrics are off'),
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cairn REST API',
      version,
      description: 'Every Cairn operation over JSON. Errors are {error:{code,message,suggestions}}. Send Authorization: Bearer <token> once the workspace has tokens.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: 'http://{host}:{port}',
        description: 'cairn serve (loopback by default; --host and --port choose)',
        variables: { host: { default: '127.0.0.1' }, port: { default: '7420' } },
      },
    ],
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'cairn token create --name NAME --scope read|write' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'suggestions'],
              properties: {
                code: { type: 'string', enum: [...Object.keys(ERROR_KINDS), ...Object.keys(HTTP_ONLY_CODES)] },
                message: { type: 'string' },
                suggestions: { type: 'array', items: { type: 'string' } },
                details: { type: 'object' },
              },
            },
          },
        },
      },
    },
    security: [{ bearer: [] }, {}],
  };
}
