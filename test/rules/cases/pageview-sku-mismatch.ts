import { R1, visitPage, type RuleCases } from '../kit';

/** P103 with variants 1030 and 1031; P105 a simple product */
const catalog = {
  ids: ['P103', '1030', '1031', 'P105'],
  skus: { 'S-P103': 'P103', 'S-1030': '1030', 'S-1031': '1031', 'S-P105': 'P105' },
  parents: { '1030': 'P103', '1031': 'P103' },
};
const view = (uid: string, parentId: string, sku: string, at = 0) =>
  visitPage(`pdp-${at}`).send('product/pageview', { result: { uid, parentId, sku } }, { at });

export default {
  valid: [
    {
      name: 'a product and a variant with their own skus',
      provenance: { companion: false, catalog },
      events: () => [view('P105', 'P105', 'S-P105'), view('1030', 'P103', 'S-1030', 10_000)],
    },
    {
      name: 'edge: a variant given by childUid alone keeps the parent’s sku',
      provenance: { companion: false, catalog },
      events: () => [view('1031', 'P103', 'S-P103')],
    },
    {
      name: 'edge: a variant given by childSku alone keeps the parent’s uid',
      provenance: { companion: false, catalog },
      events: () => [view('P103', 'P103', 'S-1031')],
    },
    {
      name: 'edge: a sku the catalog does not know',
      provenance: { companion: false, catalog },
      events: () => [view('P105', 'P105', 'p105-red')],
    },
    {
      name: 'no catalog: the issued responses serve the sku of a variant of the product viewed',
      provenance: { companion: true, responses: [R1] },
      events: () => [
        view('P200', 'P200', 'P200-RED-M'),
        view('2002', 'P200', 'P200-RED-L', 10_000),
      ],
    },
    {
      name: 'the sku sent as uid too: item-not-in-catalog names that uid and the product whose uid to send',
      provenance: { companion: false, catalog },
      events: () => [view('S-1030', 'P103', 'S-1030')],
    },
    {
      name: 'no indexed catalog',
      events: () => [view('P105', 'P105', 'S-P103')],
    },
  ],
  invalid: [
    {
      name: 'edge: a uid the catalog does not hold, with the sku of another product than the uid is the sku of',
      provenance: { companion: false, catalog },
      events: () => [view('S-1031', 'P103', 'S-1030')],
      findings: [{ message: 'gives to product "1030" (a variant of "P103")', events: [0] }],
    },
    {
      name: 'a variant with the sku of the variant selected before',
      provenance: { companion: false, catalog },
      events: () => [view('1030', 'P103', 'S-1031')],
      findings: [
        {
          message: 'gives to product "1031" (a variant of "P103")',
          fix: 'childUid and childSku together',
          events: [0],
        },
      ],
    },
    {
      name: 'no catalog: a variant with the sku the issued response served for its sibling',
      provenance: { companion: true, responses: [R1] },
      events: () => [view('2001', 'P200', 'P200-RED-L')],
      findings: [
        {
          message: 'the search responses the companion issued give to product "2002"',
          events: [0],
        },
      ],
    },
    {
      name: 'edge: the sku of an unrelated product',
      provenance: { companion: true, catalog },
      events: () => [view('P105', 'P105', 'S-P103')],
      findings: [{ message: 'gives to product "P103"', events: [0] }],
    },
  ],
} satisfies RuleCases;
