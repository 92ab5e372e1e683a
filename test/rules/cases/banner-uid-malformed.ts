import { PageBuilder, type RuleCases } from '../kit';

const page = () => new PageBuilder();

export default {
  valid: [
    {
      name: 'a header banner impressed and clicked with its data-banner-id',
      events: () => [
        page().render('r1', { at: 0 }),
        page().impression('r1', [], { at: 1_200 }, ['81001']),
        page().bannerClick('r1', '81001', { at: 3_000 }),
      ],
    },
    {
      name: 'edge: an inline banner’s ss-ib-<index> in data.results (where inline banners go)',
      events: () => [
        page().render('r1', { at: 0 }),
        page().event(
          'impression',
          { responseId: 'r1', results: [{ type: 'banner', uid: 'ss-ib-2' }], banners: [] },
          { at: 1_200 },
        ),
      ],
    },
    {
      name: 'edge: a response the sandbox issued is judged against what it served, not here',
      provenance: { companion: true },
      events: () => [
        page().render('r1', { at: 0 }),
        page().impression('r1', [], { at: 1_200 }, ['promo-x']),
      ],
    },
    {
      name: 'edge: a banner the service rejected is the schema’s',
      events: () => [
        page().render('r1', { at: 0 }),
        page().impression('r1', [], { at: 1_200, accepted: false }, ['header']),
      ],
    },
  ],
  invalid: [
    {
      name: 'a header banner sent with its name instead of its data-banner-id',
      events: () => [
        page().render('r1', { at: 0 }),
        page().impression('r1', [], { at: 1_200 }, ['winter-sale']),
      ],
      findings: [
        {
          data: { responseId: 'r1', count: '1 banner', were: 'was', them: 'it' },
          message: 'uid "winter-sale" in',
          fix: 'send the data-banner-id (its digits)',
          events: [1],
          responseId: 'r1',
          behaviour: 'search.banners',
        },
      ],
    },
    {
      name: 'edge: an inline banner’s ss-ib-<index> clicked as a slot banner, and an empty uid',
      events: () => [
        page().as('category').render('r1', { at: 0 }),
        page().as('category').impression('r1', [], { at: 1_200 }, ['ss-ib-3', '']),
        page().as('category').bannerClick('r1', 'ss-ib-3', { at: 3_000 }),
      ],
      findings: [
        {
          data: { count: '2 banners', were: 'were', them: 'them' },
          message: 'an inline banner’s id: inline banners go in data.results',
          events: [1, 2],
          // a category page's banners are its own row's (SC with page type category), not search's
          behaviour: 'category.banners',
        },
      ],
    },
    {
      name: 'edge: a digit-led id with letters is not a data-banner-id, in a widget’s banners',
      events: () => [
        page().as('recommendations', 'similar').render('r1', { at: 0 }),
        page().as('recommendations', 'similar').impression('r1', [], { at: 1_200 }, ['81001a']),
      ],
      findings: [{ message: '"81001a"', events: [1], behaviour: 'recommendations.events' }],
    },
  ],
} satisfies RuleCases;
