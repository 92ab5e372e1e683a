import { PageBuilder, R1, issued, type RuleCases } from '../kit';

const companion = { companion: true, responses: [R1] };
const shown = (extra: Array<Record<string, string>> = [], banners: string[] = []) => {
  const p = new PageBuilder();
  return [
    p.render('r1', { at: 0 }),
    p.event(
      'impression',
      {
        responseId: 'r1',
        results: [
          { type: 'product', uid: 'P200', parentId: 'P200', sku: 'P200' },
          { type: 'product', uid: 'P201', parentId: 'P201', sku: 'P201' },
          ...extra,
        ],
        banners: banners.map((uid) => ({ uid })),
      },
      { at: 1100 },
    ),
  ];
};

export default {
  valid: [
    {
      name: 'the banner impressed among the tiles, with its data-banner-id',
      provenance: companion,
      events: () => shown([{ type: 'banner', uid: 'rain-inline' }]),
    },
    {
      name: 'the banner impressed as ss-ib-<index> (a banner without data-banner-id)',
      provenance: companion,
      events: () => shown([{ type: 'banner', uid: 'ss-ib-1' }]),
    },
    {
      name: 'the banner reported in data.banners (inline-banner-in-banners names the form)',
      provenance: companion,
      events: () => shown([], ['rain-inline']),
    },
    {
      name: 'only the tile before the banner impressed',
      provenance: companion,
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['P200'], { at: 1100 })];
      },
    },
    {
      name: 'a banner first on the page, the tile after it impressed',
      provenance: {
        companion: true,
        responses: [{ ...R1, inline: [{ uid: 'rain-inline', index: 0 }] }],
      },
      events: () => shown(),
    },
    {
      name: 'a banner of another page of the results (index beyond this page)',
      provenance: {
        companion: true,
        responses: [{ ...R1, inline: [{ uid: 'rain-inline', index: 30 }] }],
      },
      events: () => shown(),
    },
    {
      name: 'a response the sandbox did not issue',
      provenance: { companion: true, responses: [issued({ responseId: 'other' })] },
      events: () => shown(),
    },
  ],
  invalid: [
    {
      name: 'judged live too: the banner comes into view with its neighbours',
      provenance: companion,
      live: true,
      events: () => shown(),
      findings: [{ messageId: 'notImpressed' }],
    },
    {
      name: 'the tiles on both sides impressed, the banner never',
      provenance: companion,
      events: () => shown(),
      findings: [
        {
          messageId: 'notImpressed',
          message:
            'inline banner "rain-inline" of responseId "r1" (search "shoes") was never impressed, though the tiles on both sides were ("P200" and "P201")',
          fix: '{type: "banner", uid}',
          events: [0, 1],
          responseId: 'r1',
          behaviour: 'search.banners',
        },
      ],
    },
    {
      name: 'a variant of the tile before it impressed (the tile is its result)',
      provenance: companion,
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['2001', 'P201'], { at: 1100 })];
      },
      findings: [{ messageId: 'notImpressed', data: { neighbours: '"P200" and "P201"' } }],
    },
  ],
} satisfies RuleCases;
