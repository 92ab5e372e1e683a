// A page's URL in a narrow row: thank-you pages of two orders share everything up to their last path
// segment and query, so the head (`/checkout/`) gives way first and the tail that tells pages apart
// (`thank-you?order=A-1001`) stays readable. The full URL is the title.
import { urlPath } from '../format';
import './page-url.css';

/** The path and query of a URL in two: everything up to its last path segment, and the rest. */
function splitUrl(url: string): { head: string; tail: string } {
  const path = urlPath(url);
  const q = path.search(/[?#]/);
  const pathOnly = q < 0 ? path : path.slice(0, q);
  // a trailing slash belongs to the last segment (`/shop/jackets/`)
  const cut = pathOnly.replace(/\/+$/, '').lastIndexOf('/') + 1;
  return { head: path.slice(0, cut), tail: path.slice(cut) };
}

export function PageUrl({ url, className = '' }: { url: string; className?: string }) {
  const { head, tail } = splitUrl(url);
  return (
    <span className={`page-url ${className}`} title={url} data-testid="page-url">
      {head && <span className="page-url-head">{head}</span>}
      <span className="page-url-tail">{tail}</span>
    </span>
  );
}
