/**
 * Independent checks of shaped declarations against each API's documented rules: the
 * name pattern and uniqueness, the description limit, the tool count, the schema subset
 * (only keywords the API takes, an object at the root, references that resolve) and, for
 * strict tools, OpenAI's strict rules. The tests run every built-in and real MCP tool
 * through them; library users can run their own tool sets through `checkDeclarations`.
 */
import type { FunctionDeclaration } from '../contract/content.js';
import { isObject, resolvePointer, type Schema } from '../utils/json-schema.js';
import { prepareDeclarations } from './declarations.js';
import { PROVIDERS, type ProviderId } from './provider-rules.js';
import { STRUCTURAL_KEYWORDS } from './schema-transform.js';
import { STRICT_LIMITS } from './strict-schema.js';

/** A declaration as sent: what the checks look at. */
export interface SentDeclaration {
  name: string;
  description?: string;
  parameters: Schema;
  strict?: boolean;
}

/** Problems of a whole request's declarations, each naming the tool. */
export function checkSentDeclarations(
  provider: ProviderId,
  declarations: readonly SentDeclaration[],
): string[] {
  const rules = PROVIDERS[provider];
  const problems: string[] = [];
  if (rules.maxTools !== undefined && declarations.length > rules.maxTools) {
    problems.push(`${declarations.length} tools; ${rules.label} takes at most ${rules.maxTools}`);
  }
  const seen = new Set<string>();
  for (const declaration of declarations) {
    const where = `${declaration.name}: `;
    if (seen.has(declaration.name)) problems.push(`${where}the name is used twice`);
    seen.add(declaration.name);
    if (!rules.namePattern.test(declaration.name))
      problems.push(`${where}the name does not match ${rules.namePattern}`);
    const length = declaration.description?.length ?? 0;
    if (rules.maxDescription !== undefined && length > rules.maxDescription)
      problems.push(
        `${where}the description has ${length} characters (limit ${rules.maxDescription})`,
      );
    for (const problem of schemaProblemsFor(provider, declaration.parameters, declaration.strict))
      problems.push(`${where}${problem}`);
  }
  return problems;
}

/** Shapes the declarations for the API as its adapter does, then checks them. */
export function checkDeclarations(
  provider: ProviderId,
  declarations: readonly FunctionDeclaration[],
): string[] {
  const prepared = prepareDeclarations(declarations, provider, { onWarning: () => {} });
  return checkSentDeclarations(provider, prepared);
}

function schemaProblemsFor(provider: ProviderId, root: Schema, strict = false): string[] {
  const { dialect } = PROVIDERS[provider];
  const problems: string[] = [];
  if (root.type !== 'object') problems.push('the parameters are not an object schema');
  if (!isObject(root.properties)) problems.push('the parameters have no properties object');
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'not', 'enum'])
    if (root[keyword] !== undefined) problems.push(`the parameters have ${keyword} at the root`);
  if (dialect.recursion === 'flatten' && root.$defs !== undefined)
    problems.push('$defs is not taken here');
  const allowed = new Set([...STRUCTURAL_KEYWORDS, ...dialect.constraints]);

  const visit = (node: unknown, path: string, depth: number, isRoot: boolean): void => {
    if (typeof node === 'boolean' && !strict) return;
    if (!isObject(node)) {
      problems.push(`${path} is not a schema object`);
      return;
    }
    for (const key of Object.keys(node)) {
      if (key === '$defs' && !isRoot) problems.push(`${path} has $defs below the root`);
      if (!allowed.has(key))
        problems.push(`${path} uses ${key}, which ${PROVIDERS[provider].label} does not take`);
    }
    if (dialect.constAsEnum && node.const !== undefined) problems.push(`${path} uses const`);
    if (typeof node.format === 'string' && dialect.formats && !dialect.formats.has(node.format))
      problems.push(`${path} uses format ${node.format}`);
    if (typeof node.$ref === 'string') {
      if (dialect.recursion === 'flatten') problems.push(`${path} uses $ref`);
      else if (!node.$ref.startsWith('#/$defs/') || !resolvePointer(root, node.$ref))
        problems.push(`${path} has a reference that does not resolve: ${node.$ref}`);
      if (strict && Object.keys(node).length > 1) problems.push(`${path} has keywords beside $ref`);
    }
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    if (types.includes('array') && node.items === undefined)
      problems.push(`${path} is an array without items`);
    const properties = isObject(node.properties) ? node.properties : undefined;
    if (Array.isArray(node.required)) {
      for (const name of node.required)
        if (!properties || !(String(name) in properties))
          problems.push(`${path} requires ${String(name)}, which it does not declare`);
    }
    if (strict) {
      if (depth > STRICT_LIMITS.depth)
        problems.push(`${path} is nested deeper than ${STRICT_LIMITS.depth}`);
      if (types.length === 0 && !node.anyOf && !node.enum && node.const === undefined && !node.$ref)
        problems.push(`${path} has no type`);
      if (types.includes('object') || properties) {
        if (node.additionalProperties !== false)
          problems.push(`${path} is an object without additionalProperties: false`);
        const names = Object.keys(properties ?? {});
        const required = Array.isArray(node.required) ? node.required : [];
        if (names.some((name) => !required.includes(name)))
          problems.push(`${path} does not list every property in required`);
      }
    }
    if (properties) {
      for (const [name, property] of Object.entries(properties))
        visit(property, `${path}.${name}`, depth + 1, false);
    }
    if (node.items !== undefined) visit(node.items, `${path}[]`, depth + 1, false);
    if (isObject(node.additionalProperties))
      visit(node.additionalProperties, `${path}{}`, depth + 1, false);
    if (Array.isArray(node.anyOf))
      for (const [index, branch] of node.anyOf.entries())
        visit(branch, `${path}|${index}`, depth + 1, false);
  };
  visit(root, 'parameters', 1, true);
  if (isObject(root.$defs)) {
    for (const [name, def] of Object.entries(root.$defs)) visit(def, `$defs.${name}`, 1, false);
  }
  return problems;
}
