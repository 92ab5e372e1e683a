// A siteId that names no site the sandbox knows, refused with the configured sites (the nearest first), so
// that a typo in a siteId does not read as a site that has sent nothing yet. The areas say what makes a site
// known to what was asked (feeds: an account of the config; readiness: an account, or recorded beacons).
import { didYouMean } from '../../shared/nearest';
import { shown } from '../../shared/text';

export class SiteNotFound extends Error {
  override readonly name = 'SiteNotFound';

  constructor(
    readonly siteId: string,
    /** the config's siteIds, in config order */
    readonly configured: readonly string[],
    /** what a siteId must be for the request: `readiness is read for …` */
    rule: string,
  ) {
    super(
      `siteId ${shown(siteId)} names no site of this sandbox: ${rule}; ${fixOf(siteId, configured)}`,
    );
  }
}

/** The configured sites to use instead, the nearest first; or how to configure one. */
function fixOf(siteId: string, configured: readonly string[]): string {
  if (configured.length === 0)
    return 'the config has no accounts: add one (accounts in the config file, or --config FILE)';
  return `${didYouMean(siteId, configured)}the configured sites are ${configured.join(', ')} (GET /_sandbox/health lists them)`;
}
