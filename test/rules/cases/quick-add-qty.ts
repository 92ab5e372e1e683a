import { PageBuilder, type RuleCases } from '../kit';

const page = () => new PageBuilder({ pageLoadId: 'pl-1' });
const add = (p: PageBuilder, qty: number | undefined, at: number) =>
  p.event(
    'addtocart',
    {
      responseId: 'r1',
      results: [
        { uid: 'a', parentId: 'a', sku: 'sku-a', price: 20, ...(qty !== undefined && { qty }) },
      ],
    },
    { at },
  );

export default {
  valid: [
    {
      name: 'a one-click add sends qty 1',
      events: () => [
        page().render('r1', { at: 0 }),
        page().impression('r1', ['a'], { at: 1_200 }),
        add(page(), 1, 3_000),
      ],
    },
    {
      name: 'edge: an add without a qty is the schema’s (the service rejects it)',
      events: () => [
        page().render('r1', { at: 0 }),
        page().event(
          'addtocart',
          { responseId: 'r1', results: [{ uid: 'a', parentId: 'a', price: 20 }] },
          { at: 3_000, accepted: false },
        ),
      ],
    },
  ],
  invalid: [
    {
      name: 'quick adds sent with qty 0 (the tile has no quantity field)',
      events: () => [
        page().as('category').render('r1', { at: 0 }),
        page().as('category').impression('r1', ['a'], { at: 1_200 }),
        add(page().as('category'), 0, 3_000),
      ],
      // the category controller's add: the category page's own behaviour, not the search page's
      findings: [{ data: { uid: 'a', qty: 0 }, events: [2], behaviour: 'category.events' }],
    },
    {
      name: 'edge: a negative quantity from a widget, counted on its tag’s row',
      events: () => [
        page().as('recommendations', 'similar').render('r1', { at: 0 }),
        add(page().as('recommendations', 'similar'), -1, 3_000),
      ],
      findings: [
        { data: { qty: -1 }, events: [1], behaviour: 'recommendations.events', tag: 'similar' },
      ],
    },
    {
      name: 'a bundle’s quick add with qty 0: the bundle widget’s behaviour, on its tag’s row',
      events: () => [
        page().as('bundles', 'bundle-a').render('r1', { at: 0 }),
        add(page().as('bundles', 'bundle-a'), 0, 3_000),
      ],
      findings: [{ events: [1], behaviour: 'bundles.widget', tag: 'bundle-a' }],
    },
    {
      name: 'the dropdown’s quick add with qty 0: the autocomplete controller’s, not the search page’s',
      events: () => [
        page().as('autocomplete').render('r1', { at: 0 }),
        page().as('autocomplete').impression('r1', ['a'], { at: 1_200 }),
        add(page().as('autocomplete'), 0, 3_000),
      ],
      findings: [{ events: [2], behaviour: 'autocomplete.events', tag: null }],
    },
    {
      name: 'a search page’s quick add with qty 0 is the search page’s own',
      events: () => [
        page().render('r1', { at: 0 }),
        page().impression('r1', ['a'], { at: 1_200 }),
        add(page(), 0, 3_000),
      ],
      findings: [{ events: [2], behaviour: 'search.addtocart-qty', tag: null }],
    },
  ],
} satisfies RuleCases;
