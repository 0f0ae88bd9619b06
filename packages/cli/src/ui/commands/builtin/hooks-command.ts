/** /hooks: the hooks this session runs, by event, with their matchers, commands and timeouts. */
import { hookTimeoutMs, listHooks } from '@toolhost/core/scheduler';
import type { SlashCommand } from '../command-types.js';

/** A code span that holds any text: the fence is longer than any run of backticks inside. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${longest > 0 ? ' ' : ''}${text.replace(/\s*\n\s*/g, ' ')}${longest > 0 ? ' ' : ''}${fence}`;
}

export const hooksCommand: SlashCommand = {
  name: 'hooks',
  description: 'List the hooks this session runs (from your settings and trusted projects)',
  source: 'built-in',
  takesArguments: false,
  run(context) {
    const { settings } = context.config;
    const hooks = listHooks(settings.hooks);
    if (hooks.length === 0) {
      context.print(
        'No hooks are configured. Add them under "hooks" in ~/.toolhost/settings.json or a trusted project\'s .toolhost/settings.json, e.g. `{"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "~/bin/check-command.sh"}]}]}}`. A project you have not trusted cannot add hooks.',
      );
      return;
    }
    const byEvent = new Map<string, string[]>();
    for (const { event, matcher, hook } of hooks) {
      const name = hook.name ? ` "${hook.name}"` : '';
      const line = `-${name} ${matcher ? `matcher ${code(matcher)}` : 'every time'}: ${code(hook.command)} (timeout ${hookTimeoutMs(hook) / 1000} s)`;
      byEvent.set(event, [...(byEvent.get(event) ?? []), line]);
    }
    const blocks = [...byEvent].map(([event, lines]) => `**${event}**\n${lines.join('\n')}`);
    if (settings.disableAllHooks)
      blocks.unshift('**All hooks are off** (disableAllHooks is true): none of these runs.');
    context.print(blocks.join('\n\n'));
  },
};
