/**
 * What happens to a line the person sends: `/` lines go to their command, `!` lines to
 * the shell, anything else to the model with its `@` references attached and the notes
 * of `!` commands run since the last prompt.
 */

import {
  attachReferences,
  findAtReferences,
  type PromptContent,
  type ToolRunner,
  withNoteBefore,
} from '@toolhost/core/conversation';
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
  /**
   * Starts the model on a prompt; `shown` is what the person typed, already in the history
   * when `echoed` (a prompt whose files were read first shows above their read).
   */
  sendToModel(prompt: PromptContent, shown: string, echoed?: boolean): void;
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
    await this.sendPrompt(line, line);
  }

  /** Sends a prompt to the model: references attached, shell notes before it. */
  async sendPrompt(text: string, shown = text): Promise<void> {
    const { services } = this;
    let prompt: PromptContent = text;
    let echoed = false;
    if (findAtReferences(text).length > 0) {
      // The prompt first, then the read of the files it names, as they happened.
      services.echo(shown);
      echoed = true;
      const context = services.commandContext();
      const attached = await attachReferences(text, {
        config: context.config,
        registry: context.registry,
        runTool: services.runTool,
        signal: services.signal(),
      });
      for (const problem of attached.problems) services.print(problem, 'warning');
      prompt = attached.content;
    }
    if (this.shellNotes.length > 0) {
      prompt = withNoteBefore(this.shellNotes.join('\n\n'), prompt);
      this.shellNotes = [];
    }
    services.sendToModel(prompt, shown, echoed);
  }
}
