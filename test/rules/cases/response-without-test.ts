import type { ResponseKind } from '../../../src/shared/kinds';
import { PageBuilder, R4, issued, type RuleCases } from '../kit';

/** A development page of `kind` that rendered and impressed `responseId` (a widget's with tag "similar"). */
const shown =
  (kind: ResponseKind, responseId: string, dev = true) =>
  () => {
    const widget = kind === 'recommendations' || kind === 'bundles';
    const p = new PageBuilder({ dev }).as(kind, widget ? 'similar' : '');
    return [p.render(responseId, { at: 0 }), p.impression(responseId, ['P202'], { at: 1200 })];
  };

/** what the sandbox issued without test=true, as `kind` (a widget's for tag "similar") */
const untested = (kind: ResponseKind, responseId: string) =>
  issued({
    ...R4,
    responseId,
    kind,
    ...((kind === 'recommendations' || kind === 'bundles') && { tag: 'similar', query: '' }),
  });

export default {
  valid: [
    {
      name: 'development beacons on a test=true response',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['P200'], { at: 1200 })];
      },
    },
    {
      name: 'production beacons on a response without test=true',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder({ dev: false });
        return [p.render('r4', { at: 0 }), p.impression('r4', ['P202'], { at: 1200 })];
      },
    },
    {
      name: 'production beacons of a widget whose recommend request had no test: true',
      provenance: { companion: true, responses: [untested('recommendations', 'w1')] },
      events: shown('recommendations', 'w1', false),
    },
  ],
  invalid: [
    {
      name: 'development beacons on a response requested without test=true',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r4', { at: 0 }), p.impression('r4', ['P202'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'withoutTest',
          message: 'The real service counts searches without test=true',
          fix: 'add test=true to the search request yourself',
          responseId: 'r4',
        },
      ],
    },
    {
      name: 'a category page’s development beacons: its search request lacked test=true',
      provenance: { companion: true, responses: [untested('category', 'c4')] },
      events: shown('category', 'c4'),
      findings: [
        {
          messageId: 'withoutTest',
          message: /^responseId "c4" \(category "shoes"\) was requested without test=true/,
          fix: 'add test=true to the search request yourself',
          responseId: 'c4',
        },
      ],
    },
    {
      name: 'the dropdown’s development beacons: its autocomplete request lacked test=true',
      provenance: { companion: true, responses: [untested('autocomplete', 'a4')] },
      events: shown('autocomplete', 'a4'),
      findings: [
        {
          messageId: 'autocompleteWithoutTest',
          message:
            /^responseId "a4" \(autocomplete "shoes"\) was requested without test=true: the autocomplete request .*counts autocomplete requests without test=true/,
          fix: 'add test=true to the autocomplete request yourself',
          responseId: 'a4',
        },
      ],
    },
    {
      name: 'a recommendations widget’s development beacons: its recommend request lacked test: true',
      provenance: { companion: true, responses: [untested('recommendations', 'w4')] },
      events: shown('recommendations', 'w4'),
      findings: [
        {
          messageId: 'widgetWithoutTest',
          message:
            /^responseId "w4" \(recommendations widget "similar"\) was requested without test: true in the body of its recommend request \(POST \/v1\/recommend\)/,
          fix: /"test": true in the body of POST \/v1\/recommend/,
          responseId: 'w4',
        },
      ],
    },
    {
      name: 'a bundle widget’s development beacons: its recommend request lacked test: true',
      provenance: { companion: true, responses: [untested('bundles', 'b4')] },
      events: shown('bundles', 'b4'),
      findings: [
        {
          messageId: 'widgetWithoutTest',
          message: /^responseId "b4" \(bundles widget "similar"\) .*POST \/v1\/recommend/,
          fix: 'recommend request',
          responseId: 'b4',
        },
      ],
    },
  ],
} satisfies RuleCases;
