import { PageBuilder, issued, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'the responseId the companion issued',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['P200'], { at: 1200 })];
      },
    },
    {
      name: 'a site that does not use the companion: nothing to compare with',
      provenance: { companion: false },
      events: () => [new PageBuilder().render('nope', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'a responseId the sandbox issued for another of its sites: the tracker names another site than the searches',
      provenance: {
        companion: true,
        responses: [issued({ responseId: 'eu-1', siteId: 'euro43' })],
      },
      events: () => {
        const p = new PageBuilder();
        return [p.render('eu-1', { at: 0 }), p.impression('eu-1', ['P200'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'otherSite',
          data: { otherSite: 'euro43', siteId: 'demo42' },
          message: 'issued by this sandbox for site euro43, not for site demo42',
          fix: 'configure the tracker with the siteId the page’s searches use',
          responseId: 'eu-1',
        },
      ],
    },
    {
      name: 'a responseId the companion never issued',
      provenance: { companion: true },
      events: () => {
        const p = new PageBuilder();
        return [p.render('made-up', { at: 0 }), p.impression('made-up', ['P200'], { at: 1200 })];
      },
      findings: [
        {
          messageId: 'notIssued',
          data: { responseId: 'made-up', kind: 'search' },
          message: '"made-up"',
          responseId: 'made-up',
        },
      ],
    },
    {
      name: 'a widget responseId the recommend API never issued for its declared tag',
      provenance: { companion: true, recommendationTags: ['similar'] },
      events: () => {
        const p = new PageBuilder().as('recommendations', 'similar');
        return [
          p.render('w-made-up', { at: 0 }),
          p.impression('w-made-up', ['P200'], { at: 1200 }),
        ];
      },
      findings: [
        {
          messageId: 'widgetNotIssued',
          data: { tag: 'similar' },
          message: 'recommend API for widget "similar"',
          fix: 'point the recommend client at the sandbox',
          responseId: 'w-made-up',
        },
      ],
    },
  ],
} satisfies RuleCases;
