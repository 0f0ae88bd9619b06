/**
 * The constraint keywords the schema transform knows (formats, lengths, bounds, item and
 * entry counts, defaults, examples), and how one a model API does not take is put into
 * words for the description instead.
 */

/** The constraint keywords the transform knows, in the order notes about them are written. */
export const CONSTRAINT_KEYWORDS = [
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'default',
  'examples',
] as const;

export type ConstraintKeyword = (typeof CONSTRAINT_KEYWORDS)[number];

export function describeConstraint(keyword: ConstraintKeyword, value: unknown): string {
  const json = JSON.stringify(value);
  switch (keyword) {
    case 'format':
      return `Format: ${String(value)}.`;
    case 'pattern':
      return `Must match the regular expression ${json}.`;
    case 'minLength':
      return `At least ${json} characters.`;
    case 'maxLength':
      return `At most ${json} characters.`;
    case 'minimum':
      return `Minimum ${json}.`;
    case 'maximum':
      return `Maximum ${json}.`;
    case 'exclusiveMinimum':
      return typeof value === 'number' ? `Greater than ${json}.` : '';
    case 'exclusiveMaximum':
      return typeof value === 'number' ? `Less than ${json}.` : '';
    case 'multipleOf':
      return `A multiple of ${json}.`;
    case 'minItems':
      return `At least ${json} items.`;
    case 'maxItems':
      return `At most ${json} items.`;
    case 'uniqueItems':
      return value === true ? 'Items must be unique.' : '';
    case 'minProperties':
      return `At least ${json} entries.`;
    case 'maxProperties':
      return `At most ${json} entries.`;
    case 'default':
      return `Default: ${json}.`;
    case 'examples':
      return Array.isArray(value) && value.length > 0
        ? `Example: ${JSON.stringify(value[0])}.`
        : '';
  }
}
