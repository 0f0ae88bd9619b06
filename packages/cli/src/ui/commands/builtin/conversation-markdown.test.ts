import { describe, expect, it } from 'vitest';
import { conversationMarkdown, lastAnswer } from './conversation-markdown.js';

const header = { sessionId: 'abc', model: 'm', folder: '/ws', at: new Date(0) };

describe('conversationMarkdown', () => {
  it('gives prompts as typed, answers, and tool calls with results fenced safely', () => {
    const markdown = conversationMarkdown(
      [
        {
          role: 'user',
          content:
            '[The person cancelled the previous turn before it finished (Esc); anything it was doing was stopped. Continue with the request below.]\n\nread @a.md\n\n--- Content from referenced files ---\nsecret body',
        },
        {
          role: 'assistant',
          content: 'Reading.',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"p":1}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'has ``` fences' },
        { role: 'assistant', content: 'It says hello.' },
      ],
      header,
    );
    expect(markdown).toContain('## You\n\nread @a.md\n');
    expect(markdown).not.toContain('secret body');
    expect(markdown).not.toContain('cancelled the previous turn');
    expect(markdown).toContain('**Tool call** `read_file`\n\n```json\n{\n  "p": 1\n}\n```');
    expect(markdown).toContain('````\nhas ``` fences\n````');
    expect(markdown).toContain('## Assistant\n\nIt says hello.');
  });

  it('finds the last answer with text', () => {
    expect(
      lastAnswer([
        { role: 'assistant', content: 'First.' },
        { role: 'assistant', content: '', tool_calls: [] },
      ]),
    ).toBe('First.');
    expect(lastAnswer([{ role: 'user', content: 'hi' }])).toBeUndefined();
  });
});
