import { z, type ZodType } from 'zod';
import { errorResponse } from '../../shared/schemas/common';
import type { RestRoute } from './routes';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

/** A zod schema as plain JSON Schema 2020-12 (OpenAPI 3.1's dialect), without `$schema`. */
export function jsonSchema(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** The object schema of an input (an optional input unwrapped), or null without one. */
export function inputObject(route: Pick<RestRoute, 'input'>): JsonSchema | null {
  if (!route.input) return null;
  const s = jsonSchema(route.input, 'input');
  if (s.type === 'object') return s;
  const branch = (s.anyOf as JsonSchema[] | undefined)?.find((b) => b.type === 'object');
  return branch ?? null;
}

const AUTH_TEXT = {
  public: 'Public: no token.',
  session: 'Needs a login session: `Authorization: Bearer <auth_token>`. API keys are refused.',
  'session-or-key': 'Needs `Authorization: Bearer <auth_token or API key>`; an API key works only from its allowed addresses.',
} as const;

export function authText(route: Pick<RestRoute, 'auth'>): string {
  return AUTH_TEXT[route.auth];
}

/** The OpenAPI 3.1 document of the REST routes, read from the procedures' declarations. */
export function openApiDocument(routes: RestRoute[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const input = inputObject(r);
    const op: Record<string, unknown> = {
      operationId: r.procedure.replace('.', '_'),
      tags: [r.path.startsWith('/api/') ? 'private' : 'public'],
      summary: `${r.method} ${r.path}`,
      description: `${r.summary}\n\n${authText(r)} tRPC: \`${r.procedure}\`.${r.cacheMs ? ` Cached for ${r.cacheMs / 1000} s.` : ''}`,
    };
    if (r.method === 'GET' && input?.properties) {
      op.parameters = Object.entries(input.properties).map(([name, schema]) => ({
        name,
        in: 'query',
        required: input.required?.includes(name) ?? false,
        schema,
      }));
    } else if (r.method === 'POST' && input) {
      op.requestBody = { required: !r.input!.safeParse(undefined).success, content: { 'application/json': { schema: input } } };
    }
    const responses: Record<string, unknown> = {
      '200': { description: 'Success', content: { 'application/json': { schema: r.output ? jsonSchema(r.output, 'output') : {} } } },
    };
    // The statuses of the table in docs/decisions.md ("Error codes and statuses").
    responses['4XX'] = { $ref: '#/components/responses/Error' };
    responses['5XX'] = { $ref: '#/components/responses/Error' };
    op.responses = responses;
    if (r.auth === 'session') op.security = [{ session: [] }];
    if (r.auth === 'session-or-key') op.security = [{ session: [] }, { apiKey: [] }];
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Nodekeep API',
      version: '1',
      description:
        'REST routes for scripts. Every failure answers `{success: false, message}` with a 4xx/5xx status. ' +
        'POST bodies are JSON (`Content-Type: application/json`); unknown fields are refused.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: jsonSchema(errorResponse, 'output') },
      responses: {
        Error: { description: 'A failure: the message says what is wrong.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
      securitySchemes: {
        session: { type: 'http', scheme: 'bearer', description: 'The auth_token from POST /public_api/login.' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, usable only from its allowed IP addresses.' },
      },
    },
  };
}
