// The header the companion search API marks its own answers with. A browser's HAR keeps response headers, so
// `check` of a HAR tells the sandbox's answers (whose responseIds it issued, and whose results it counted)
// from any other service's answer of the same shape, and reads them as the issued responses an export
// carries.
export const ANSWER_HEADER = 'X-Search-Sandbox-Answer';
/** the header's value on an answer of the companion search (search, category, autocomplete, …) */
export const COMPANION_ANSWER = 'companion';
