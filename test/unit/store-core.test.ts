// The event store as wired into the core: bus messages for appends, and the reset hook other areas register on.
import { describe, expect, it } from 'vitest';
import { createCore, type ResetScope } from '../../src/main/sandbox';
import type { StreamMessage } from '../../src/shared/stream';
import { testConfig } from '../helpers/sandbox';
import { renderDraft } from '../helpers/event-drafts';

const draft = (siteId: string) => renderDraft(siteId);

describe('core.events and core.reset', () => {
  it('emits every stored event on the bus', async () => {
    const core = await createCore(testConfig());
    try {
      const messages: StreamMessage[] = [];
      core.bus.on((m) => messages.push(m));
      const stored = await core.events.append(draft('demo42'));
      expect(messages.filter((m) => m.type === 'event')).toEqual([{ type: 'event', data: stored }]);
    } finally {
      await core.close();
    }
  });

  it('reset forgets events, runs registered handlers with the scope, then emits reset', async () => {
    const core = await createCore(testConfig());
    try {
      const order: string[] = [];
      const scopes: ResetScope[] = [];
      core.bus.on((m) => m.type === 'reset' && order.push(`bus:${JSON.stringify(m.data)}`));
      const off = core.onReset(async (scope) => {
        scopes.push(scope);
        order.push(`handler:${core.events.size()}`);
      });
      await core.events.append(draft('demo42'));
      await core.events.append(draft('other1'));
      await core.reset({ what: 'events', siteId: 'demo42' });
      expect(core.events.all().map((e) => e.siteId)).toEqual(['other1']);
      expect(order).toEqual(['handler:1', 'bus:{"what":"events","siteId":"demo42"}']);
      off();
      await core.reset({ what: 'all' });
      expect(core.events.size()).toBe(0);
      expect(scopes).toEqual([{ what: 'events', siteId: 'demo42' }]);
    } finally {
      await core.close();
    }
  });
});
