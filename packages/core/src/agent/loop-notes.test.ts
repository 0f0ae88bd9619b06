import { describe, expect, it } from 'vitest';
import { stopHookNote } from '../hooks/stop-hook-note.js';
import type { ChatMessage } from '../models/model-types.js';
import {
  CONTINUE_AFTER_LENGTH,
  lastPromptIndex,
  NUDGE_AFTER_EMPTY,
  SUMMARY_HEADING,
} from './loop-notes.js';

const call = (id: string): ChatMessage => ({
  role: 'assistant',
  content: '',
  tool_calls: [{ id, type: 'function', function: { name: 'write_file', arguments: '{}' } }],
});

describe('lastPromptIndex', () => {
  it('skips what the agent added itself and finds the prompt that began the turn', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: `${SUMMARY_HEADING}\nearlier` },
      { role: 'assistant', content: 'Understood.' },
      { role: 'user', content: 'write a and b' },
      call('c1'),
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: 'the image the tool read' }] },
      { role: 'user', content: NUDGE_AFTER_EMPTY },
      { role: 'assistant', content: 'part' },
      { role: 'user', content: CONTINUE_AFTER_LENGTH },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: stopHookNote('Stop', ['run the tests']) },
      call('c2'),
    ];
    expect(lastPromptIndex(messages)).toBe(2);
  });

  it('takes a prompt with attached files, and finds none in a summary alone', () => {
    const image: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'see @pic.png' }] };
    expect(lastPromptIndex([{ role: 'assistant', content: 'hi' }, image, call('c1')])).toBe(1);
    expect(lastPromptIndex([{ role: 'user', content: `${SUMMARY_HEADING}\nall of it` }])).toBe(-1);
  });
});
