import { PageBuilder, R1, issued, type RuleCases } from '../kit';

const click = (p: PageBuilder, item: Record<string, string>, at: number) =>
  p.event('clickthrough', { responseId: 'r1', results: [{ type: 'product', ...item }] }, { at });

/** r5: two results that share a sku (a feed that reuses one) */
const R5 = issued({
  responseId: 'r5',
  results: [
    { uid: 'P500', sku: 'SAME', parentId: 'P500', children: [] },
    { uid: 'P501', sku: 'SAME', parentId: 'P501', children: [] },
  ],
});

export default {
  valid: [
    {
      name: 'a click and an add with the ids of one result',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          click(p, { uid: 'P201', parentId: '', sku: 'P201' }, 2000),
          p.event(
            'addtocart',
            {
              responseId: 'r1',
              results: [{ uid: 'P202', parentId: 'P202', sku: 'P202', qty: 1, price: 10 }],
            },
            { at: 3000 },
          ),
        ];
      },
    },
    {
      name: 'edge: a variant picked on the tile (its own sku, or the parent’s)',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          click(p, { uid: '2001', parentId: 'P200', sku: 'P200-RED-L' }, 2000),
          click(p, { uid: 'P200', parentId: 'P200', sku: 'P200-RED-M' }, 4000),
        ];
      },
    },
    {
      name: 'edge: a sku the response never served, or an empty one',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          click(p, { uid: 'P201', parentId: '', sku: 'p201-formatted' }, 2000),
          click(p, { uid: 'P202', parentId: '', sku: '' }, 4000),
        ];
      },
    },
    {
      name: 'edge: a sku two results share names neither',
      provenance: { companion: true, responses: [R5] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r5', { at: 0 }),
          p.event(
            'clickthrough',
            {
              responseId: 'r5',
              results: [{ type: 'product', uid: 'P500', parentId: '', sku: 'SAME' }],
            },
            { at: 2000 },
          ),
        ];
      },
    },
    {
      name: 'no issued response: nothing to compare with',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          click(p, { uid: 'P201', parentId: '', sku: 'P202' }, 2000),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'a click carrying the sku of the neighbouring tile',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          click(p, { uid: 'P201', parentId: '', sku: 'P202' }, 2000),
        ];
      },
      findings: [
        {
          message: 'uid "P201" in ev_',
          fix: 'of the same result',
          events: [1],
          responseId: 'r1',
          behaviour: 'search.clickthrough',
        },
      ],
    },
    {
      name: 'edge: a variant’s sku of another result',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          click(p, { uid: 'P201', parentId: '', sku: 'P200-RED-L' }, 2000),
        ];
      },
      findings: [{ message: 'the sku of result "P200"', events: [1] }],
    },
    {
      name: 'a quick add carrying the sku of the neighbouring tile',
      provenance: { companion: true, responses: [R1] },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'addtocart',
            {
              responseId: 'r1',
              results: [{ uid: 'P201', parentId: '', sku: 'P202', qty: 1, price: 10 }],
            },
            { at: 3000 },
          ),
        ];
      },
      // no click among its items: the quick add's behaviour, not the click's
      findings: [{ message: 'uid "P201" in ev_', events: [1], behaviour: 'search.addtocart' }],
    },
  ],
} satisfies RuleCases;
