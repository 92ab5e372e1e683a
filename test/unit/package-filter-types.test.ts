// The package's filter types (src/main/api/types.ts, written by hand so the published types hold no
// TypeBox) against the admin API's one declaration (src/shared/admin-api.ts): every parameter the API
// takes is a typed key of the package's filter, with a type the API's own accepts, and the package types
// nothing the API does not take. Checked by the type checker (`npm test` runs it first): a parameter
// added to the declaration and not to the package fails `npm run typecheck` here, naming the parameter
// ("Type '"rule"' does not satisfy the constraint 'never'"). The types are closed: no index signature lets a
// misspelt key through; that `{ evnt: 'render' }` is a type error is held by the expected type errors of
// test/api/package-client.test.ts and of the packaged types' check (test/e2e/package-install.test.ts).
import { describe, expect, it } from 'vitest';
import { ADMIN_API, type AdminEndpointName, type QueryOf } from '../../src/shared/admin-api';
import type {
  EventFilter,
  ExpectCleanOptions,
  ReportFilter,
  OrderFilter,
  TimelineFilter,
  VisitFilter,
  WaitOptions,
} from '../../src/main/api/types';

/** the keys a type names, without its index signature */
type Named<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
/** the API's parameters the package's type does not name */
type Missing<N extends AdminEndpointName, Pkg, Left> = Exclude<keyof QueryOf<N>, Named<Pkg> | Left>;
/** the package's keys the API does not take (but the package's own options, `Own`) */
type Extra<N extends AdminEndpointName, Pkg, Own = never> = Exclude<
  Named<Pkg>,
  keyof QueryOf<N> | Own
>;
/**
 * the keys whose declared values the package's type does not take all of (but `Narrowed`: keys the package
 * types more narrowly on purpose, as `rule`, a rule id of the union `RuleId`, where the API takes a string
 * and refuses an unknown id when asked)
 */
type Misfit<N extends AdminEndpointName, Pkg, Narrowed = never> = {
  [K in Exclude<keyof QueryOf<N> & keyof Pkg, Narrowed>]-?: [
    Exclude<QueryOf<N>[K], undefined>,
  ] extends [Exclude<Pkg[K], undefined>]
    ? never
    : K;
}[Exclude<keyof QueryOf<N> & keyof Pkg, Narrowed>];

/** `'index signature'` when a type takes any key (a typo would type-check), else never */
type Open<T> = string extends keyof T ? 'index signature' : never;

/** a type error naming what is not `never` */
function none<T extends never>(): T | undefined {
  return undefined;
}

describe('the package filter types', () => {
  it('name the parameters the admin API declares, with the types it declares', () => {
    // Left out of the package's filters: what shapes the answer rather than choosing its items (`follow`
    // streams NDJSON, `view` trims the pages: the package has its own calls for those), and `finished`
    // (its expectClean reads the report, which judges every page as finished anyway).
    none<Missing<'events', EventFilter, 'follow'>>();
    none<Extra<'events', EventFilter>>();
    none<Misfit<'events', EventFilter>>();
    none<Missing<'wait', WaitOptions, never>>();
    none<Extra<'wait', WaitOptions>>();
    none<Misfit<'wait', WaitOptions>>();
    none<Missing<'timelines', TimelineFilter, 'view' | 'finished'>>();
    none<Extra<'timelines', TimelineFilter>>();
    none<Misfit<'timelines', TimelineFilter, 'rule'>>();
    // the report's: `format` is report()'s first argument
    none<Missing<'report', ReportFilter, 'format'>>();
    none<Extra<'report', ReportFilter>>();
    none<Misfit<'report', ReportFilter, 'rule'>>();
    // expectClean lists the pages judged as finished (its own options say what fails, not which pages):
    // every page, so not by verdict, and not cut by a limit
    none<Missing<'timelines', ExpectCleanOptions, 'verdict' | 'limit' | 'view' | 'finished'>>();
    none<
      Extra<'timelines', ExpectCleanOptions, 'failOn' | 'rules' | 'ignoreRules' | 'allowEmpty'>
    >();
    none<Misfit<'timelines', ExpectCleanOptions, 'rule'>>();
    none<Missing<'visits', VisitFilter, never>>();
    none<Extra<'visits', VisitFilter>>();
    none<Misfit<'visits', VisitFilter>>();
    none<Missing<'orders', OrderFilter, never>>();
    none<Extra<'orders', OrderFilter>>();
    none<Misfit<'orders', OrderFilter>>();
    // closed: each names its keys, and takes no other
    none<Open<EventFilter>>();
    none<Open<WaitOptions>>();
    none<Open<TimelineFilter>>();
    none<Open<ReportFilter>>();
    none<Open<ExpectCleanOptions>>();
    none<Open<VisitFilter>>();
    none<Open<OrderFilter>>();
    // the runtime half: the endpoints checked are in the declaration, each with a query
    for (const name of ['events', 'wait', 'timelines', 'visits', 'orders'] as const)
      expect(ADMIN_API[name], name).toHaveProperty('query');
  });
});
