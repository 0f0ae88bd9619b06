/**
 * A server's question to the person (MCP elicitation, form mode): the fields of its
 * flat schema, typed answers from text a person typed, the final check of the answers
 * (defaults applied for what was left out, then the schema's own rules), and the round
 * trip through the running call's confirmation channel.
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { validateAgainstSchema } from '../../utils/schema-validator.js';
import { visibleText } from '../../utils/visible-text.js';
import { ToolConfirmationOutcome, type ToolExecutionContext } from '../tools.js';

export interface ElicitationField {
  name: string;
  title: string;
  description?: string;
  type: 'string' | 'number' | 'integer' | 'boolean';
  required: boolean;
  /** Allowed values (string enums, or oneOf consts), with labels. */
  choices?: { value: string; label: string }[];
  /** Several values may be picked (an array of enum items). */
  multiple?: boolean;
  default?: unknown;
  format?: string;
}

type PropertySchema = Record<string, unknown>;

/** The fields of an elicitation form, in the server's order. */
export function elicitationFields(schema: Record<string, unknown>): ElicitationField[] {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const items = property.items as PropertySchema | undefined;
    const source = property.type === 'array' && items ? items : property;
    const choices = choicesOf(source, property);
    const type = (source.type as ElicitationField['type'] | undefined) ?? 'string';
    return {
      name,
      // Titles, descriptions and labels are only shown, so a server's text is escaped here
      // for every front end.
      title: visibleText(typeof property.title === 'string' ? property.title : name),
      ...(typeof property.description === 'string'
        ? { description: visibleText(property.description, { multiline: true }) }
        : {}),
      type: ['string', 'number', 'integer', 'boolean'].includes(type) ? type : 'string',
      required: required.has(name),
      ...(choices ? { choices } : {}),
      ...(property.type === 'array' ? { multiple: true } : {}),
      ...('default' in property ? { default: property.default } : {}),
      ...(typeof property.format === 'string' ? { format: property.format } : {}),
    };
  });
}

function choicesOf(
  source: PropertySchema,
  property: PropertySchema,
): ElicitationField['choices'] | undefined {
  const labels = (property.enumNames ?? source.enumNames) as string[] | undefined;
  if (Array.isArray(source.enum))
    return source.enum.map((value, i) => ({
      value: String(value),
      label: visibleText(labels?.[i] ?? String(value)),
    }));
  const options = (source.oneOf ?? source.anyOf) as PropertySchema[] | undefined;
  if (Array.isArray(options) && options.every((option) => 'const' in option))
    return options.map((option) => ({
      value: String(option.const),
      label: visibleText(typeof option.title === 'string' ? option.title : String(option.const)),
    }));
  return undefined;
}

/**
 * The value a person meant by what they typed: numbers, yes/no, a choice by its number
 * or value, several choices separated by commas. Undefined for an empty answer.
 */
export function parseFieldAnswer(
  field: ElicitationField,
  text: string,
): { value: unknown } | { problem: string } | undefined {
  const typed = text.trim();
  if (typed === '') return undefined;
  const one = (word: string): { value: unknown } | { problem: string } => {
    if (field.choices) {
      const byNumber = field.choices[Number(word) - 1];
      const picked =
        /^\d+$/.test(word) && byNumber
          ? byNumber
          : field.choices.find((c) => c.value === word || c.label === word);
      if (!picked)
        return {
          problem: `choose one of ${field.choices.map((c, i) => `${i + 1} (${c.label})`).join(', ')}`,
        };
      return { value: picked.value };
    }
    if (field.type === 'boolean') {
      if (/^(y|yes|true|1)$/i.test(word)) return { value: true };
      if (/^(n|no|false|0)$/i.test(word)) return { value: false };
      return { problem: 'answer yes or no' };
    }
    if (field.type === 'number' || field.type === 'integer') {
      const number = Number(word);
      if (!Number.isFinite(number) || (field.type === 'integer' && !Number.isInteger(number)))
        return { problem: `type ${field.type === 'integer' ? 'a whole number' : 'a number'}` };
      return { value: number };
    }
    return { value: word };
  };
  if (!field.multiple) return one(typed);
  const values: unknown[] = [];
  for (const word of typed
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean)) {
    const parsed = one(word);
    if ('problem' in parsed) return parsed;
    values.push(parsed.value);
  }
  return { value: values };
}

/**
 * The answers as they go back to the server: defaults filled in for fields left out,
 * then checked against the server's schema. A problem is said in one line for the person.
 */
export function completeAnswers(
  schema: Record<string, unknown>,
  answers: Record<string, unknown>,
): { content: Record<string, unknown> } | { problem: string } {
  const content: Record<string, unknown> = { ...answers };
  for (const field of elicitationFields(schema)) {
    if (content[field.name] === undefined && field.default !== undefined)
      content[field.name] = field.default;
  }
  const problem = validateAgainstSchema(schema, content);
  return problem ? { problem } : { content };
}

/**
 * A server's question, put to the person through a running call's confirmation channel;
 * nobody to ask (headless, or no call running) declines. Answers are checked against the
 * server's schema, and asked again while they fail it.
 */
export async function askForServer(
  alias: string,
  ask: ToolExecutionContext['ask'] | undefined,
  params: ElicitRequest['params'],
  signal: AbortSignal,
): Promise<ElicitResult> {
  if (!ask || params.mode === 'url' || !('requestedSchema' in params)) return { action: 'decline' };
  const schema = params.requestedSchema as Record<string, unknown>;
  let problem: string | undefined;
  for (let attempt = 0; attempt < 3 && !signal.aborted; attempt++) {
    const decision = await ask({
      type: 'elicitation',
      title: `MCP server "${alias}" asks:`,
      serverName: alias,
      message: problem ? `${params.message}\n(${problem}; please answer again.)` : params.message,
      requestedSchema: schema,
      onConfirm: () => undefined,
    });
    if (decision.outcome === ToolConfirmationOutcome.Cancel)
      return { action: decision.payload?.dismissed ? 'cancel' : 'decline' };
    const checked = completeAnswers(schema, decision.payload?.answers ?? {});
    if ('content' in checked)
      return { action: 'accept', content: checked.content as ElicitResult['content'] };
    problem = checked.problem;
  }
  return { action: 'cancel' };
}
