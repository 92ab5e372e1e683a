import { PageBuilder, product, type RuleCases } from '../kit';

/** r1 (the kit's): results P200 (variants 2001, 2002), P201, P202 */
const variantImpressed = (uid: string) => () => {
  const p = new PageBuilder();
  return [
    p.render('r1', { at: 0 }),
    p.event(
      'impression',
      { responseId: 'r1', results: [product(uid, 'P200'), product('P201')], banners: [] },
      { at: 1200 },
    ),
  ];
};

export default {
  valid: [
    {
      name: 'the result impressed and clicked, its selected variant added to the cart',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200', 'P201'], { at: 1200 }),
          p.click('r1', 'P200', { at: 3000 }),
          p.cart('r1', '2001', { at: 3500 }, 'P200'),
        ];
      },
    },
    {
      name: 'edge: without the response the companion issued, nothing tells a variant',
      events: variantImpressed('2001'),
    },
  ],
  invalid: [
    {
      name: 'a swatch rewrote the tile’s id: the selected variant impressed',
      provenance: { companion: true },
      events: variantImpressed('2001'),
      findings: [
        {
          messageId: 'variant',
          message: '1 tile reported with responseId "r1"',
          fix: 'not the variant the tile shows',
          events: [1],
          behaviour: 'search.items-served',
        },
      ],
    },
    {
      name: 'the variant clicked, the result impressed',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1200 }),
          p.event(
            'clickthrough',
            { responseId: 'r1', results: [product('2002', 'P200')] },
            { at: 3000 },
          ),
        ];
      },
      findings: [{ message: 'uid "2002" in ev_', events: [2] }],
    },
  ],
} satisfies RuleCases;
