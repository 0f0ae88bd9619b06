/**
 * A conversation's output schema: its final answer must be JSON that validates against a
 * JSON Schema. The schema is told to the model in the system prompt; an answer that is not
 * such JSON is sent back once with what is wrong, and a second failure ends the turn as an
 * error. Validation goes through the one validator (ajv, loaded on first use).
 */
import type { AgentRunResult } from '../agent/agent-events.js';
import { addUsage } from '../models/token-usage.js';
import { schemaProblems } from '../utils/schema-validator.js';

export type JsonSchema = Record<string, unknown>;

/** How the turn's answer measured up to the schema. */
export type StructuredOutcome =
  | { ok: true; value: unknown }
  | { ok: false; problems: string; attempts: number };

/** Added to the system prompt: what the final answer must be. */
export function schemaInstructions(schema: JsonSchema): string {
  return [
    '# Final answer format',
    'Your final answer (the message you end the task with, without a tool call) must be a single JSON value that validates against the JSON Schema below, and nothing else: no prose before or after it, no Markdown code fence.',
    JSON.stringify(schema, null, 2),
  ].join('\n\n');
}

/** The answer's JSON value, or what is wrong with it (written for the model). */
export function checkAnswer(
  schema: JsonSchema,
  text: string,
): { ok: true; value: unknown } | { ok: false; problems: string } {
  const json = withoutFence(text.trim());
  if (!json) return { ok: false, problems: 'the answer was empty; it must be a JSON value' };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return {
      ok: false,
      problems: `the answer is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const problems = schemaProblems(schema, value);
  if (problems.length === 0) return { ok: true, value };
  return {
    ok: false,
    problems: problems
      .map((problem) =>
        problem.path.length === 0 && problem.message.startsWith('must be an object')
          ? `the answer must be of type ${JSON.stringify(schema.type)}`
          : `${problem.name || 'the answer'} ${problem.message}`,
      )
      .join('; '),
  };
}

/** The prompt of the second attempt. */
export function retryPrompt(problems: string): string {
  return `Your final answer does not validate against the required JSON Schema: ${problems}. Answer again with only the corrected JSON value.`;
}

/**
 * Runs `attempt` (the prompt first, then the retry prompt) until the answer validates or
 * the retry was spent. Runs that stop for another reason (a limit, a cancel, an error)
 * end as they are. Returns the last run's result with the runs' counts added up.
 */
export async function runForSchema(
  schema: JsonSchema,
  attempt: (retry: string | undefined) => Promise<AgentRunResult>,
): Promise<{ result: AgentRunResult; structured: StructuredOutcome | undefined }> {
  let result = await attempt(undefined);
  if (result.status !== 'success') return { result, structured: undefined };
  let check = checkAnswer(schema, result.text);
  if (check.ok) return { result, structured: check };
  const second = await attempt(retryPrompt(check.problems));
  result = {
    ...second,
    turns: result.turns + second.turns,
    toolCalls: result.toolCalls + second.toolCalls,
    usage: addUsage(result.usage, second.usage),
    durationMs: result.durationMs + second.durationMs,
    permissionDenials: [...result.permissionDenials, ...second.permissionDenials],
  };
  if (second.status !== 'success') return { result, structured: undefined };
  check = checkAnswer(schema, second.text);
  if (check.ok) return { result, structured: check };
  return {
    result: {
      ...result,
      status: 'error',
      message: `The final answer did not validate against --json-schema after 2 attempts: ${check.problems}.`,
    },
    structured: { ok: false, problems: check.problems, attempts: 2 },
  };
}

/** A fenced block around the whole answer (```json ... ```) is taken off. */
function withoutFence(text: string): string {
  const fenced = /^```[a-zA-Z]*\n([\s\S]*?)\n?```$/.exec(text);
  return fenced ? (fenced[1] ?? '').trim() : text;
}
