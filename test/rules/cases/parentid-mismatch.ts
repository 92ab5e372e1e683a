import { PageBuilder, product, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'parentId = uid, and a variant’s parentId its result (what the Snap client sends)',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            {
              responseId: 'r1',
              results: [product('P200'), product('2001', 'P200'), product('2002', '2002')],
              banners: [],
            },
            { at: 1200 },
          ),
        ];
      },
    },
    {
      name: 'a parentId that names no result is parentid-unclear’s',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            { responseId: 'r1', results: [product('P201', 'nowhere')], banners: [] },
            { at: 1200 },
          ),
        ];
      },
    },
  ],
  invalid: [
    {
      name: 'a parentId of another product of the response',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.event(
            'impression',
            { responseId: 'r1', results: [product('P201', 'P200')], banners: [] },
            { at: 1200 },
          ),
        ];
      },
      findings: [{ message: 'it should be "P201"', fix: 'parentId of the result', events: [1] }],
    },
  ],
} satisfies RuleCases;
