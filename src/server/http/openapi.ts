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
  'session-or-key':
    'Needs `Authorization: Bearer <auth_token or API key>`; an API key works only from its allowed addresses.',
} as const;

export function authText(route: Pick<RestRoute, 'auth'>): string {
  return AUTH_TEXT[route.auth];
}

/** The OpenAPI 3.1 document of the REST routes, read from the procedures' declarations. */
export function openApiDocument(routes: RestRoute[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.multipart) continue; // added to its path's JSON operation below

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
      op.requestBody = {
        required: !r.input!.safeParse(undefined).success,
        content: { 'application/json': { schema: input } },
      };
    }
    const responses: Record<string, unknown> = {
      '200': {
        description: 'Success',
        content: r.csv
          ? { 'text/csv': { schema: { type: 'string' } } }
          : { 'application/json': { schema: r.output ? jsonSchema(r.output, 'output') : {} } },
      },
    };
    // The statuses of the table in docs/decisions.md ("Errors and statuses").
    responses['4XX'] = { $ref: '#/components/responses/Error' };
    responses['5XX'] = { $ref: '#/components/responses/Error' };
    op.responses = responses;
    if (r.auth === 'session') op.security = [{ session: [] }];
    if (r.auth === 'session-or-key') op.security = [{ session: [] }, { apiKey: [] }];
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }
  for (const r of routes.filter((r) => r.multipart)) addMultipartBody(paths, r);
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
        Error: {
          description: 'A failure: the message says what is wrong.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      securitySchemes: {
        session: { type: 'http', scheme: 'bearer', description: 'The auth_token from POST /public_api/login.' },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key, usable only from its allowed IP addresses.',
        },
      },
    },
  };
}

/**
 * A multipart route shares its path and method with a JSON route (http/rest.ts picks by
 * Content-Type): one operation, whose request body has both media types.
 */
function addMultipartBody(paths: Record<string, Record<string, unknown>>, r: RestRoute) {
  const method = r.method.toLowerCase();
  const input = inputObject(r);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(input?.properties ?? {})) {
    // Each file is its own part named after the field (repeated), sent as binary.
    properties[name] =
      schema.type === 'array'
        ? { type: 'array', items: { type: 'string', contentMediaType: 'application/json' } }
        : schema;
  }
  const form = { type: 'object', properties, required: input?.required ?? [] };
  const existing = paths[r.path]?.[method] as Record<string, any> | undefined;
  if (!existing) {
    (paths[r.path] ??= {})[method] = {
      operationId: r.procedure.replace('.', '_'),
      summary: `${r.method} ${r.path}`,
      description: r.summary,
      requestBody: { required: true, content: { 'multipart/form-data': { schema: form } } },
    };
    return;
  }
  existing.requestBody ??= { required: true, content: {} };
  existing.requestBody.content['multipart/form-data'] = {
    schema: form,
    encoding: { keystores: { contentType: 'application/json' } },
  };
  existing.description = `${existing.description}\n\nAs multipart/form-data (tRPC \`${r.procedure}\`): ${r.summary}`;
}
