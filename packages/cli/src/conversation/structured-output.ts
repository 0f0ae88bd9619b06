/**
 * `--json-schema`: the run's final answer must be JSON that validates against a schema.
 * The schema is told to the model in the system prompt; an answer that is not such JSON is
 * sent back once with what is wrong, and a second failure ends the run as an error
 * (`error_max_structured_output_retries`, the subtype Claude Code and Qwen Code use).
 * Validation goes through core's one validator (ajv, loaded on first use).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type JsonSchema, schemaInstructions } from '@toolhost/core/conversation';
import { schemaCompileError } from '@toolhost/core/files';
import { UsageError } from '../errors.js';
import type { AgentFlags } from './agent-flags.js';

export type {
  JsonSchema,
  StructuredOutcome,
} from '@toolhost/core/conversation';

/** The schema from the flag's value: JSON text, or the path of a file holding it. */
export function loadJsonSchema(value: string, cwd: string): JsonSchema {
  const trimmed = value.trim();
  let text = trimmed;
  let source = 'the --json-schema value';
  if (!trimmed.startsWith('{')) {
    const file = path.resolve(cwd, trimmed);
    if (!existsSync(file)) {
      throw new UsageError(
        `--json-schema takes a JSON Schema as JSON text or a file path; "${value}" is neither JSON nor an existing file.`,
      );
    }
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(
        `--json-schema: cannot read ${file} (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    source = file;
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--json-schema: ${source} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new UsageError(`--json-schema: ${source} must be a JSON Schema object.`);
  }
  const problem = schemaCompileError(schema as JsonSchema);
  if (problem)
    throw new UsageError(`--json-schema: ${source} is not a usable schema (${problem}).`);
  return schema as JsonSchema;
}

/** The flags with the schema's instructions added to the system prompt. */
export function withSchemaInstructions(flags: AgentFlags, schema: JsonSchema): AgentFlags {
  const instructions = schemaInstructions(schema);
  return {
    ...flags,
    appendSystemPrompt: flags.appendSystemPrompt
      ? `${flags.appendSystemPrompt}\n\n${instructions}`
      : instructions,
  };
}
