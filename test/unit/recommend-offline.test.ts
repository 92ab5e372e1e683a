// Widget responses offline (`check` of an export, the corpus): the recorded recommend responses tell which
// widget tags the sandbox served, so a responseId of such a widget that it never issued is judged as live.
import { describe, expect, it } from 'vitest';
import type { IssuedResponse } from '../../src/main/search/responses';
import { offlineProvenance } from '../../src/main/tracking/timeline/offline-provenance';

function issued(responseId: string, extra: Partial<IssuedResponse>): IssuedResponse {
  return {
    responseId,
    siteId: 'demo42',
    query: '',
    page: 1,
    perPage: 1,
    issuedAt: 1_000,
    results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
    inline: [],
    slots: { header: [], banner: [], footer: [], left: [] },
    redirect: null,
    test: false,
    ...extra,
  };
}

describe('offline provenance of widget responses', () => {
  it('a site serves the tags of its recorded recommend responses; search responses add none', () => {
    const p = offlineProvenance([
      issued('s1', { kind: 'search', query: 'jacket' }),
      issued('r1', { kind: 'recommendations', tag: 'similar' }),
      issued('b1', { kind: 'bundles', tag: 'bundle-pdp' }),
    ]);
    expect(p.site('demo42')).toEqual({
      companion: true,
      catalogCheck: false,
      recommendationTags: ['similar', 'bundle-pdp'],
    });
    expect(p.issued('demo42', 'r1')?.tag).toBe('similar');
    expect(offlineProvenance([issued('s1', { kind: 'search' })]).site('demo42')).toMatchObject({
      recommendationTags: [],
    });
    expect(p.site('other')).toBeUndefined();
  });
});
