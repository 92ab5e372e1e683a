import { PageBuilder, product, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'parentId = uid',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            { responseId: 'r1', results: [product('P201')], banners: [] },
            { at: 1200 },
          ),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'uid and parentId swapped within one result',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            { responseId: 'r1', results: [product('P200', '2001')], banners: [] },
            { at: 1200 },
          ),
        ];
      },
      findings: [{ message: 'look swapped', fix: "result's uid", events: [1] }],
    },
  ],
} satisfies RuleCases;
