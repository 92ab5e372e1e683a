// The shape of a siteId, one pattern for everything that reads one (beacon paths, config accounts, search
// parameters, indexing credentials, the desktop shell and the UI's forms): six lowercase letters or digits,
// the pattern the provider's beacon service names in its 404 for a path with another siteId.
export const SITE_ID_PATTERN = /^[a-z0-9]{6}$/;
