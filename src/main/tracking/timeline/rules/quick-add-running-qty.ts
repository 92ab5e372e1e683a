// `quick-add-running-qty` (warning): one product quick-added three or more times in a row on a page, each
// add's qty one more than the last (1, 2, 3): the storefront sends the cart line's quantity after the add,
// not what the add added.
//
// Why it is certain enough: the provider's controllers send a quick add's quantity as the tile's own
// (`qty: result.quantity || 1`, SC track.product.addToCart: 1 for a one-click add, or what the tile's
// quantity picker holds), and the beacon adds each add's items to its stored cart (B cart: qty += qty), as
// the provider's add-to-cart counts do. A line's running quantity sent as each add's qty counts 1 + 2 + 3 =
// 6 units for 3 added. A shopper who sets a tile's quantity picker one higher before each of three adds
// of the same product is not a storefront's everyday traffic.
// What it exempts: two adds (1 then 2: a shopper who picked 2 the second time), any run broken by another
// quantity, adds of other products between (each product keeps its own run), rejected adds.
import type { RecordedEvent } from '../../../../shared/events';
import type { Page } from '../page';
import { str } from '../../values';
import { isObject } from '../../../../shared/values';
import { dataOf } from './utils/request-context';
import { finding, type RuleMeta, defineRule, judgedIn, RESPONSE_KINDS } from './types';
import { tallySlot } from './utils/tally-slot';

/** adds in a row, each one more than the last, that tell a running quantity from a shopper's picks */
const RUN = 3;

const meta: RuleMeta<'page'> = {
  id: 'quick-add-running-qty',
  judges: ['page'],
  title: 'Quick adds send the cart line’s running quantity',
  description:
    'One product quick-added three or more times in a row on a page with qty 1, 2, 3 (each one more than the last): the storefront sends the cart line’s quantity after the add, where the provider’s controllers send what the add added and its beacon sums them into the cart.',
  expects: 'Each addtocart’s qty is the quantity that add added (1 for a one-click add).',
  ...judgedIn(RESPONSE_KINDS, ['search.addtocart-qty']),
  defaultSeverity: 'warning',
  messages: {
    running:
      'uid "{{uid}}" was quick-added {{count}} times in a row with qty {{qtys}} ({{events}}): each add’s qty is the cart line’s quantity after it, not what the click added. The provider’s controllers send the quantity of this add (`qty: result.quantity || 1`) and its beacon adds it to the stored cart, so the provider counts {{counted}} units added where the shopper added {{added}}.',
  },
  fix: 'Send the quantity this add added (1 for a one-click add), not the cart line’s quantity after it.',
  fixes: {
    running:
      "send each addtocart's qty as the quantity that click added (the provider's controllers send `result.quantity || 1`), not the cart line's total.",
  },
  listens: ['addtocart'],
};

/** a product's current run of adds on the page */
interface Run {
  uid: string;
  qty: number;
  ids: string[];
  qtys: number[];
}
/** the page's runs (one per product quick-added, nearly always one); `found`: the first of RUN adds */
interface Runs {
  runs: Run[];
  found?: Run;
}
const runs = tallySlot<Runs>();

/** Notes the page's quick adds' quantities; true when a run reached RUN adds (the page's findings changed). */
function tally(page: Page, rec: RecordedEvent): boolean {
  if (!rec.accepted || rec.event !== 'addtocart') return false;
  const results = dataOf(rec).results;
  if (!Array.isArray(results)) return false;
  const kept = runs.make(page, () => ({ runs: [] }));
  if (kept.found) return false;
  for (const item of results) {
    if (!isObject(item) || typeof item.qty !== 'number') continue;
    const uid = str(item.uid);
    if (uid === '') continue;
    const run = kept.runs.find((x) => x.uid === uid);
    if (!run) {
      kept.runs.push({ uid, qty: item.qty, ids: [rec.id], qtys: [item.qty] });
      continue;
    }
    // a request read again (the real service's late answer to it) is not another add
    if (run.ids[run.ids.length - 1] === rec.id) return false;
    if (item.qty === run.qty + 1) {
      run.ids.push(rec.id);
      run.qtys.push(item.qty);
    } else {
      run.ids = [rec.id];
      run.qtys = [item.qty];
    }
    run.qty = item.qty;
    if (run.ids.length >= RUN) {
      kept.found = run;
      kept.runs = [];
      return true;
    }
  }
  return false;
}

export const quickAddRunningQty = defineRule({
  meta,
  tally,
  count: (page) => (runs.of(page)?.found ? 1 : 0),
  page(page) {
    const found = runs.of(page)?.found;
    if (!found) return [];
    const counted = found.qtys.reduce((a, b) => a + b, 0);
    const added = found.qtys[found.qtys.length - 1]! - found.qtys[0]! + 1;
    return [
      finding(
        meta,
        found.uid,
        {
          messageId: 'running',
          data: {
            uid: found.uid,
            count: found.qtys.length,
            qtys: found.qtys.join(', '),
            events: found.ids.join(', '),
            counted,
            added,
          },
        },
        found.ids,
      ),
    ];
  },
});
