// GET /_sandbox/openapi.json: the admin API's OpenAPI 3.1 description, made from its one declaration
// (src/shared/admin-api.ts), so the document, the server's parsing and the clients cannot drift apart.
import {
  ADMIN_API,
  declaredErrors,
  isMediaAnswer,
  pathParams,
  type Answer,
  type BodyDeclaration,
  type Endpoint,
} from '../../shared/admin-api';
import { BODY_CONTENT_TYPES } from '../../shared/schema-endpoint';
import { requiredWhy } from '../../shared/admin-params';
import { isRuleIdSchema } from '../../shared/schema-base';
import { RULE_IDS } from '../tracking/timeline/rule-list';

/** A schema as JSON (TypeBox's own symbols dropped); a rule id, wherever it stands, gets the ids as its enum. */
function plain(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown) =>
    isRuleIdSchema(value) ? { ...(value as object), enum: [...RULE_IDS] } : value,
  ) as Record<string, unknown>;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'a bad request: the parameter or field, what was wrong and what is allowed',
  403: 'a request from another host or origin (the admin API is same-origin only)',
  404: 'not found: the message says what is known',
  405: 'a method this path does not take (`Allow` lists the ones it does)',
  408: 'the time given passed first, or the request did not arrive whole in time',
  409: 'a conflict: the message says how to resolve it',
  413: 'the body is larger than the endpoint takes (`limit` says how large it may be)',
  415: 'a Content-Type the body is not taken in (`limit` names the ones it is)',
  431: 'the request line and headers are larger than the server reads (16 KB)',
  503: 'not done: the data directory refused the write (StorageFailed, a full disk: the message names the file and the fix, and what, if anything, was stored) or the sandbox began closing before it could answer (Closing: the message says what it had seen, or what became of the request)',
};

const jsonContent = (schema: unknown) => ({ 'application/json': { schema: plain(schema) } });

/**
 * The 200 answer: its JSON schema, or where a view parameter changes it, oneOf the views' JSON schemas
 * (and the media types of the views that are not JSON).
 */
function okAnswer(e: Endpoint): Record<string, unknown> {
  const answers: Answer[] = e.views ? Object.values(e.views.answers) : [e.response];
  const content: Record<string, unknown> = {};
  const json = answers.filter((a) => !isMediaAnswer(a));
  const distinct = [...new Map(json.map((a) => [JSON.stringify(a), a])).values()];
  if (distinct.length === 1) Object.assign(content, jsonContent(distinct[0]));
  else if (distinct.length > 1) Object.assign(content, jsonContent({ oneOf: distinct }));
  for (const a of answers)
    if (isMediaAnswer(a)) content[a.mediaType] = a.items ? { 'x-item-schema': plain(a.items) } : {};
  const description = isMediaAnswer(e.response)
    ? e.response.description
    : String(e.response.description ?? 'the answer');
  return {
    description: e.views
      ? `${description} (by ${e.views.param}: ${Object.keys(e.views.answers).join(', ')})`
      : description,
    content,
  };
}

function errorAnswers(e: Endpoint): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const declared = declaredErrors(e) as Record<number, unknown>;
  for (const [status, schema] of Object.entries(declared))
    out[status] = { description: STATUS_TEXT[Number(status)], content: jsonContent(schema) };
  return out;
}

/** The body by the Content-Types its media is taken in, each with its schema and size cap. */
function requestBody(body: BodyDeclaration): Record<string, unknown> {
  const schema = { ...plain(body.schema), 'x-max-bytes': body.maxBytes };
  const types = BODY_CONTENT_TYPES[body.media] ?? ['*/*'];
  return {
    required: !body.optional,
    description: `${body.expected}; at most ${body.maxBytes} bytes`,
    content: Object.fromEntries(types.map((type) => [type, { schema }])),
  };
}

function operation(name: string, e: Endpoint): Record<string, unknown> {
  const parameters = [
    ...pathParams(e.path).map((p) => {
      const declared = e.params?.[p];
      return {
        name: p,
        in: 'path',
        required: true,
        ...(typeof declared?.description === 'string' && { description: declared.description }),
        schema: declared ? plain(declared) : { type: 'string' },
      };
    }),
    ...Object.entries(e.query ?? {}).map(([q, schema]) => ({
      name: q,
      in: 'query',
      required: requiredWhy(schema) !== undefined,
      ...(typeof schema.description === 'string' && { description: schema.description }),
      schema: plain(schema),
    })),
  ];
  return {
    operationId: name,
    summary: e.summary,
    ...(parameters.length > 0 && { parameters }),
    ...(e.body && { requestBody: requestBody(e.body) }),
    responses: { '200': okAnswer(e), ...errorAnswers(e) },
  };
}

/**
 * The document as JSON text, made on its first request and kept: the declaration does not change while the
 * process runs, and making it took over a third of a sandbox's start (~11 of ~29 ms of CPU; tests start hundreds).
 */
export function openApiText(version: string): string {
  let text = madeFor.get(version);
  if (text === undefined) madeFor.set(version, (text = JSON.stringify(openApiDocument(version))));
  return text;
}
const madeFor = new Map<string, string>();

function openApiDocument(version: string): Record<string, unknown> {
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
    // relative: a generated client's base URL is the sandbox the document was fetched from, whatever port
    servers: [{ url: '/', description: 'the sandbox that served this document' }],
    paths,
  };
}
