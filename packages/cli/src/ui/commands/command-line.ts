/**
 * Reading a `/` line: which command it names (by name or alias), its arguments, the
 * answer for a name that is no command (with the nearest names), and the completion menu
 * while the line is typed.
 */
import { closestNames } from '@toolhost/core/tools';
import type { Completion, Suggestion } from '../input/prompt-editor.js';
import type { CommandContext, SlashCommand } from './command-types.js';

export type ParsedLine =
  | { type: 'prompt' }
  | { type: 'command'; command: SlashCommand; args: string }
  | { type: 'unknown'; name: string; message: string };

/** A command name: no second slash, so `/usr/bin/env is missing` stays a prompt. */
const NAME = /^[\p{L}\p{N}_.:-]+$/u;

export function parseSlashLine(line: string, commands: readonly SlashCommand[]): ParsedLine {
  const trimmed = line.trimStart();
  if (!trimmed.startsWith('/')) return { type: 'prompt' };
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(trimmed);
  const name = match?.[1] ?? '';
  const args = (match?.[2] ?? '').trim();
  const command = findCommand(name, commands);
  if (command) return { type: 'command', command, args };
  if (!NAME.test(name)) return { type: 'prompt' };
  return { type: 'unknown', name, message: unknownCommandMessage(name, commands) };
}

export function findCommand(
  name: string,
  commands: readonly SlashCommand[],
): SlashCommand | undefined {
  const wanted = name.toLowerCase();
  return (
    commands.find((command) => command.name.toLowerCase() === wanted) ??
    commands.find((command) => command.aliases?.some((alias) => alias.toLowerCase() === wanted))
  );
}

export function unknownCommandMessage(name: string, commands: readonly SlashCommand[]): string {
  const names = commands.flatMap((command) => [command.name, ...(command.aliases ?? [])]);
  const nearest = closestNames(name, names, 3);
  const hint =
    nearest.length > 0
      ? ` Did you mean ${nearest.map((candidate) => `/${candidate}`).join(', ')}?`
      : '';
  return `/${name} is not a command.${hint} Type /help to see them all.`;
}

/**
 * The completion menu for a line starting with `/`: command names while the first word
 * is typed, then the command's own argument suggestions.
 */
export function completeSlashLine(
  text: string,
  cursor: number,
  commands: readonly SlashCommand[],
  context: CommandContext,
): Completion | undefined {
  if (!text.startsWith('/')) return undefined;
  const firstSpace = text.search(/\s/);
  if (firstSpace === -1 || cursor <= firstSpace) {
    const typed = text.slice(1, cursor).toLowerCase();
    const items = commandSuggestions(typed, commands);
    return items.length > 0
      ? { items, selected: 0, start: 0, end: firstSpace === -1 ? text.length : firstSpace }
      : undefined;
  }
  const command = findCommand(text.slice(1, firstSpace), commands);
  if (!command?.completeArguments || cursor !== text.length) return undefined;
  const args = text.slice(firstSpace).replace(/^\s+/, '');
  const argsStart = text.length - args.length;
  // The suggestions complete the last word of the arguments.
  const wordStart = argsStart + (args.lastIndexOf(' ') + 1);
  const items = command.completeArguments(context, args).map(
    (suggestion): Suggestion => ({
      value: suggestion.value,
      ...(suggestion.description ? { description: suggestion.description } : {}),
    }),
  );
  const typedWord = text.slice(wordStart);
  if (items.length === 0 || (items.length === 1 && items[0]?.value.trim() === typedWord)) {
    return undefined;
  }
  return { items, selected: 0, start: wordStart, end: text.length };
}

function commandSuggestions(typed: string, commands: readonly SlashCommand[]): Suggestion[] {
  const starts: SlashCommand[] = [];
  const contains: SlashCommand[] = [];
  for (const command of commands) {
    const names = [command.name, ...(command.aliases ?? [])].map((name) => name.toLowerCase());
    if (names.some((name) => name.startsWith(typed))) starts.push(command);
    else if (typed && names.some((name) => name.includes(typed))) contains.push(command);
  }
  const byName = (a: SlashCommand, b: SlashCommand) => a.name.localeCompare(b.name);
  return [...starts.sort(byName), ...contains.sort(byName)].map((command) => ({
    value: command.takesArguments ? `/${command.name} ` : `/${command.name}`,
    label: `/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ''}`,
    description: command.description,
    submitOnEnter: !command.takesArguments,
  }));
}
