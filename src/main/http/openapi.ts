// GET /_sandbox/openapi.json: the admin API's OpenAPI 3.1 description, made from its one declaration
// (src/shared/admin-api.ts), so the document, the server's parsing and the clients cannot drift apart.
import { ADMIN_API, pathParams, type Endpoint } from '../../shared/admin-api';
import { RULE_IDS } from '../tracking/timeline/rule-list';

/** A schema as JSON (TypeBox's own symbols dropped); a rule id parameter gets the ids as its enum. */
function plain(schema: unknown): Record<string, unknown> {
  const out = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  if (out['x-values'] === 'rule-ids') out.enum = [...RULE_IDS];
  return out;
}

const PROBLEM = {
  description: 'a bad request: the parameter, what was wrong and what is allowed',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['error', 'message'],
        properties: {
          error: { type: 'string' },
          message: { type: 'string' },
          parameter: { type: 'string' },
          allowed: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
};

function operation(name: string, e: Endpoint): Record<string, unknown> {
  const parameters = [
    ...pathParams(e.path).map((p) => ({
      name: p,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...Object.entries(e.query ?? {}).map(([q, schema]) => ({
      name: q,
      in: 'query',
      required: false,
      ...(typeof schema.description === 'string' && { description: schema.description }),
      schema: plain(schema),
    })),
  ];
  const ok =
    'mediaType' in e.response
      ? { description: e.response.description, content: { [e.response.mediaType]: {} } }
      : {
          description: String(e.response.description ?? 'the answer'),
          content: { 'application/json': { schema: plain(e.response) } },
        };
  return {
    operationId: name,
    summary: e.summary,
    ...(parameters.length > 0 && { parameters }),
    ...(e.body && {
      requestBody: { required: false, content: { 'application/json': { schema: plain(e.body) } } },
    }),
    responses: { '200': ok, '400': PROBLEM },
  };
}

export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, endpoint] of Object.entries(ADMIN_API) as Array<[string, Endpoint]>) {
    paths[endpoint.path] ??= {};
    paths[endpoint.path]![endpoint.method.toLowerCase()] = operation(name, endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'search-sandbox admin API',
      version,
      description:
        'The sandbox’s own API under /_sandbox (same-origin only). The provider’s interfaces (beacon v2, bulk indexing, search) are described by the provider.',
    },
    paths,
  };
}
