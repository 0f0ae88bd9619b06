/**
 * What happens to a line the person sends: `/` lines go to their command, `!` lines to
 * the shell, anything else to the model with the notes of `!` commands run since the last
 * prompt. The conversation core attaches what the prompt's `@` references name when its
 * turn starts, as it does for every front end.
 */

import type { ToolRunner } from '@toolhost/core/conversation';
import { parseSlashLine } from '../commands/command-line.js';
import type { CommandContext, MessageKind, SlashCommand } from '../commands/command-types.js';
import { runShellLine, shellCommandOf } from './shell-line.js';

export interface DispatcherServices {
  /** The context commands run with (its submitPrompt should call dispatcher.sendPrompt). */
  commandContext(): CommandContext;
  commands(): readonly SlashCommand[];
  runTool: ToolRunner;
  /** Shows the person's own line in the conversation (a command or a shell line). */
  echo(line: string): void;
  print(markdown: string, kind?: MessageKind): void;
  /** Sends a prompt to the model, `notes` before it (what `!` commands did). */
  sendToModel(prompt: string, notes: string[]): void;
  /** A signal for work started by this line (aborted by Esc). */
  signal(): AbortSignal;
}

export class PromptDispatcher {
  /** What `!` commands did since the last prompt, for the model to read with the next one. */
  private shellNotes: string[] = [];

  constructor(private readonly services: DispatcherServices) {}

  async submit(line: string): Promise<void> {
    const { services } = this;
    const parsed = parseSlashLine(line, services.commands());
    if (parsed.type === 'command') {
      services.echo(line);
      try {
        await parsed.command.run(services.commandContext(), parsed.args);
      } catch (error) {
        services.print(`/${parsed.command.name} failed: ${(error as Error).message}`, 'error');
      }
      return;
    }
    if (parsed.type === 'unknown') {
      services.echo(line);
      services.print(parsed.message, 'error');
      return;
    }
    const command = shellCommandOf(line);
    if (command !== undefined) {
      services.echo(line);
      if (!command) {
        services.print('Write the command after the "!", e.g. `!git status`.', 'error');
        return;
      }
      const result = await runShellLine(command, services.runTool, services.signal());
      this.shellNotes.push(result.note);
      return;
    }
    this.sendPrompt(line);
  }

  /** Sends a prompt to the model, with the shell notes gathered since the last one. */
  sendPrompt(text: string): void {
    const notes = this.shellNotes;
    this.shellNotes = [];
    this.services.sendToModel(text, notes);
  }
}
