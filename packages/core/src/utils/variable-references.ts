/**
 * How settings name an environment variable: `$NAME` or `${NAME}`. Settings loading expands
 * them (config/settings-layer.ts); the trust cut drops a project's value that names one
 * (trust/untrusted-project.ts). One syntax for both, so what is cut is what would expand.
 */

/** A variable reference; group 1 is a braced name, group 2 a bare one. */
export const VARIABLE_REFERENCE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** Whether `value` (or a string inside it) names an environment variable: `$NAME` or `${NAME}`. */
export function referencesVariable(value: unknown): boolean {
  if (typeof value === 'string') return new RegExp(VARIABLE_REFERENCE.source).test(value);
  if (Array.isArray(value)) return value.some(referencesVariable);
  if (typeof value === 'object' && value !== null)
    return Object.values(value).some(referencesVariable);
  return false;
}
