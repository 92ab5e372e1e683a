// The one client of the admin API, derived from its declaration (admin-api.ts): an endpoint is called by
// its name, its method and path come from the entry, its body and answer have the entry's types. The UI
// (src/renderer/src/api/client.ts), the package (src/main/api/client.ts), the desktop shell
// (src/main/desktop/admin-client.ts) and the CLI's tail (src/main/cli/tail.ts) call through it; each words a
// failure in its own way (`fail`).
import {
  ADMIN_API,
  isMediaAnswer,
  type AdminEndpointName,
  type AnswerOf,
  type BodyOf,
  type Endpoint,
  type QueryOf,
} from './admin-api';
import { encodePart, shown } from './text';

/** Why a call failed: status 0 when the sandbox could not be reached, else its status and body. */
export interface AdminFailure {
  method: string;
  /** the path and query called */
  path: string;
  status: number;
  /** the answer's JSON (its text when it was not JSON; undefined when there was none or no answer) */
  body: unknown;
  /** the network error, when there was no answer */
  cause?: unknown;
}

export interface AdminCall<N extends AdminEndpointName, Q> {
  params?: Record<string, string | number>;
  /**
   * Query parameters, in the order given; each defined one is sent (the sandbox answers an undeclared
   * one with a 400 that names it, which is what a caller passing one through from JavaScript sees).
   */
  query?: Q;
  /** the JSON body the endpoint declares */
  body?: BodyOf<N>;
  /** a body already serialized as JSON text (an export file read from disk) */
  jsonText?: string;
  /** ends a streamed answer (follow, the SSE stream) */
  signal?: AbortSignal;
}

/** A call of any endpoint, as the client handles it inside. */
type AnyCall = Omit<AdminCall<AdminEndpointName, unknown>, 'body'> & { body?: unknown };

export interface AdminClientOptions {
  /** default: the global fetch at the time of the call */
  fetch?: typeof fetch;
  /** the error a failed call throws */
  fail: (failure: AdminFailure) => Error;
}

export class AdminApiClient {
  /** `base`: http://host:port of the sandbox, or '' for the page's own origin */
  constructor(
    readonly base: string,
    private readonly options: AdminClientOptions,
  ) {}

  /** The path and query of a call: path parameters filled in (encoded), query values as given. */
  path(name: AdminEndpointName, call: AnyCall = {}): string {
    const endpoint: Endpoint = ADMIN_API[name];
    const path = endpoint.path.replace(/\{(\w+)\}/g, (_, key: string) => {
      const value = call.params?.[key];
      if (value === undefined) throw new Error(`${name}: path parameter ${key} is missing`);
      return encodePart(String(value));
    });
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries((call.query ?? {}) as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      // a list or an object would go out as "a,b" or "[object Object]" and silently match nothing
      if (typeof value === 'object' || typeof value === 'function')
        throw new TypeError(
          `${name}: query parameter ${key} takes one value (a string, number or boolean), got ${typeof value === 'function' ? 'a function' : shown(value)}: ask once per value`,
        );
      search.set(key, String(value));
    }
    const qs = search.toString();
    return qs ? `${path}?${qs}` : path;
  }

  /** The answer as it came (for statuses the caller reads itself); throws `fail` when unreachable. */
  async send<N extends AdminEndpointName, const Q extends QueryOf<N> = QueryOf<N>>(
    name: N,
    call: AdminCall<N, Q> = {},
  ): Promise<Response> {
    return this.fetchAnswer(name, call as AnyCall);
  }

  private async fetchAnswer(name: AdminEndpointName, call: AnyCall): Promise<Response> {
    const method = ADMIN_API[name].method;
    const path = this.path(name, call);
    const text = call.jsonText ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
    try {
      return await (this.options.fetch ?? fetch)(`${this.base}${path}`, {
        method,
        headers: {
          Accept: 'application/json',
          ...(text !== undefined && { 'Content-Type': 'application/json' }),
        },
        body: text,
        signal: call.signal,
      });
    } catch (cause) {
      throw this.options.fail({ method, path, status: 0, body: undefined, cause });
    }
  }

  /**
   * The declared answer (JSON, or the text of an answer that is not JSON, such as a JUnit report);
   * throws `fail` for any status but 2xx, and for a JSON answer that is not JSON.
   */
  call<N extends AdminEndpointName, const Q extends QueryOf<N> = QueryOf<N>>(
    name: N,
    call: AdminCall<N, Q> = {},
  ): Promise<NoInfer<AnswerOf<N, Q>>> {
    // the answer's type is the declaration's; the value is checked against it by the answers test
    return this.answer(name, call as AnyCall) as Promise<never>;
  }

  private async answer(name: AdminEndpointName, call: AnyCall): Promise<unknown> {
    const res = await this.fetchAnswer(name, call);
    const text = await res.text().catch(() => '');
    const fail = (body: unknown) =>
      this.options.fail({
        method: ADMIN_API[name].method,
        path: this.path(name, call),
        status: res.status,
        body,
      });
    let body: unknown;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      body =
        isMediaAnswer(declaredAnswer(ADMIN_API[name], call.query)) && res.ok ? text : undefined;
      if (body === undefined) throw fail(res.ok ? undefined : text);
    }
    if (!res.ok || body === undefined) throw fail(body);
    return body;
  }
}

/** The answer an endpoint gives for a query: its view's, or its own. */
function declaredAnswer(endpoint: Endpoint, query: unknown) {
  const view =
    endpoint.views && (query as Record<string, unknown> | undefined)?.[endpoint.views.param];
  return view === undefined
    ? endpoint.response
    : (endpoint.views!.answers[String(view)] ?? endpoint.response);
}
