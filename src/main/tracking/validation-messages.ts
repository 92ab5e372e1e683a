// Turns ajv's errors into the beacon service's own messages (one per real problem), each with the
// dotted JSON path it concerns. The wording copies the service's 400 bodies listed in its OAS.
import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from '../../shared/events';

/** `/data/results/0/uid` → `data.results[0].uid` */
export function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(segment) ? `[${segment}]` : out ? `.${segment}` : segment;
  }
  return out;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** How a path is named in a message: the whole body has no key of its own. */
function label(path: string): string {
  return path || 'request body';
}

/** The clickthrough's XOR (tightening T7) is the only `oneOf` left in the generated schemas. */
function exactlyOneMessage(error: ErrorObject, path: string): string {
  const branches = ((error.parentSchema?.oneOf ?? []) as Array<{ required?: string[] }>).map((b) =>
    join(path, b.required?.[0] ?? '?'),
  );
  const passing = (error.params as { passingSchemas?: number[] | null }).passingSchemas;
  const [first = 'data.results', second = 'data.banners'] = branches;
  return passing
    ? `request body contains both ${first} and ${second}: send exactly one item in ${first} or in ${second}, not both`
    : `missing required key-value: ${first} or ${second} (a clickthrough carries exactly one item in one of them)`;
}

function toIssue(error: ErrorObject): ValidationIssue | null {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const at = join(path, String(params.missingProperty));
      return { message: `missing required key-value: ${at}`, path: at };
    }
    case 'type':
      return { message: `invalid data type passed for key: ${label(path)}`, path };
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      return {
        message: `request body contains unknown field: ${JSON.stringify(name)}`,
        path: join(path, name),
      };
    }
    case 'enum':
    case 'const': {
      const allowed = (params.allowedValues as unknown[] | undefined) ?? [params.allowedValue];
      return {
        message: `invalid value received for required key \`${label(path)}\` - accepts \`${allowed.join(',')}\``,
        path,
      };
    }
    case 'format':
      return params.format === 'date-time'
        ? { message: `invalid ${label(path)} format: expected RFC3339`, path }
        : { message: `invalid ${label(path)} format: expected ${String(params.format)}`, path };
    case 'minLength':
    case 'minItems':
      return {
        message: `invalid minimum value passed for key \`${label(path)}\` - expected length \`${String(params.limit)}\``,
        path,
      };
    case 'maxLength':
    case 'maxItems':
      return {
        message: `invalid maximum value passed for key \`${label(path)}\` - expected length \`${String(params.limit)}\``,
        path,
      };
    case 'pattern':
      return {
        message: `invalid value received for key \`${label(path)}\` - expected pattern \`${String(params.pattern)}\``,
        path,
      };
    case 'oneOf':
      return { message: exactlyOneMessage(error, path), path };
    case 'if':
      return null; // "must match then/else": the branch's own errors already say what is wrong
    default:
      return {
        message: `invalid value received for key \`${label(path)}\`: ${error.message ?? error.keyword}`,
        path,
      };
  }
}

/**
 * One message per real problem: ajv reports a failed `if` next to its branch's errors, the branches of
 * the clickthrough `oneOf` next to the `oneOf` itself, the same type error twice for an `if/then`
 * item, a pattern failure next to the length failure that caused it, and whatever else a value of
 * the wrong type fails.
 */
export function issuesFromAjv(
  errors: readonly ErrorObject[] | null | undefined,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const lengthFailures = new Set(
    (errors ?? [])
      .filter((e) => e.keyword === 'minLength' || e.keyword === 'maxLength')
      .map((e) => e.instancePath),
  );
  // A value of the wrong type fails everything else said about it (e.g. both clickthrough branches
  // "pass" for a string, since `required` only applies to objects): its type is the one problem.
  const wrongType = new Set(
    (errors ?? []).filter((e) => e.keyword === 'type').map((e) => e.instancePath),
  );
  for (const error of errors ?? []) {
    if (error.schemaPath.includes('/oneOf/')) continue;
    if (error.keyword !== 'type' && wrongType.has(error.instancePath)) continue;
    if (error.keyword === 'pattern' && lengthFailures.has(error.instancePath)) continue;
    const issue = toIssue(error);
    if (!issue) continue;
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}
