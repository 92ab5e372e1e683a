// Whether two pages of a shopper are on two origins: a checkout on another domain, where the client's ids
// (kept in cookies and storage of the storefront's domain) are new unless the integration passes them on.
import { originOf } from '../../../page-url';

/** Both URLs are absolute, at two origins. */
export function otherOrigin(a: string, b: string): boolean {
  const x = originOf(a);
  const y = originOf(b);
  return x !== '' && y !== '' && x !== y;
}
