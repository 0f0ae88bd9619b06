/** OpenAI Responses stream events for a script step, typed with the openai package. */
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { AnswerStep, SseEvent, StreamErrorStep } from './provider-servers.js';

export function responsesError(message: string) {
  return { error: { message, type: 'server_error', param: null, code: null } };
}

export function responsesEvents(step: AnswerStep | StreamErrorStep): SseEvent[] {
  let sequence = 0;
  const events: SseEvent[] = [];
  const push = (event: ResponseStreamEvent) => events.push({ event: event.type, data: event });
  const response = (status: Response['status'], usage?: Response['usage']): Response => ({
    id: 'resp_test',
    object: 'response',
    created_at: 0,
    model: 'responses-scripted',
    output: [],
    output_text: '',
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: null,
    metadata: null,
    parallel_tool_calls: true,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    ...(usage ? { usage } : {}),
  });
  push({
    type: 'response.created',
    response: response('in_progress'),
    sequence_number: sequence++,
  });
  let output = 0;
  const text = (delta: string) =>
    push({
      type: 'response.output_text.delta',
      delta,
      item_id: 'msg_1',
      output_index: output,
      content_index: 0,
      logprobs: [],
      sequence_number: sequence++,
    });
  if ('streamError' in step) {
    if (step.textBefore) text(step.textBefore);
    push({
      type: 'error',
      code: step.streamError.status === 429 ? 'rate_limit_exceeded' : 'server_error',
      message: step.streamError.message,
      param: null,
      sequence_number: sequence++,
    });
    return events;
  }
  if (step.thinking)
    push({
      type: 'response.reasoning_summary_text.delta',
      delta: step.thinking,
      item_id: 'rs_1',
      output_index: output++,
      summary_index: 0,
      sequence_number: sequence++,
    });
  if (step.text) {
    const middle = Math.ceil(step.text.length / 2);
    text(step.text.slice(0, middle));
    text(step.text.slice(middle));
    output++;
  }
  for (const call of step.toolCalls ?? []) {
    const item = {
      type: 'function_call' as const,
      id: `fc_${output}`,
      call_id: call.id ?? `call_${output}`,
      name: call.name,
      arguments: '',
      status: 'in_progress' as const,
    };
    push({
      type: 'response.output_item.added',
      item,
      output_index: output,
      sequence_number: sequence++,
    });
    push({
      type: 'response.function_call_arguments.delta',
      delta: JSON.stringify(call.args),
      item_id: item.id,
      output_index: output,
      sequence_number: sequence++,
    });
    push({
      type: 'response.output_item.done',
      item: { ...item, arguments: JSON.stringify(call.args), status: 'completed' },
      output_index: output,
      sequence_number: sequence++,
    });
    output++;
  }
  const usage = {
    input_tokens: step.usage?.input ?? 10,
    output_tokens: step.usage?.output ?? 5,
    total_tokens: (step.usage?.input ?? 10) + (step.usage?.output ?? 5),
    input_tokens_details: { cached_tokens: step.usage?.cacheRead ?? 0, cache_write_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  if (step.cutOff)
    push({
      type: 'response.incomplete',
      response: response('incomplete', usage),
      sequence_number: sequence++,
    });
  else
    push({
      type: 'response.completed',
      response: response('completed', usage),
      sequence_number: sequence++,
    });
  return events;
}
