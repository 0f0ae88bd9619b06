/**
 * A call's confirmation details as a front end shows them: every string that came from
 * the model, a server or the workspace (the command, file names, the diff, URLs, server
 * and tool names, the plan, the title that quotes them) passed through visibleText, so no
 * control or invisible character reaches the terminal. The copy is for showing only; the
 * original (with onConfirm, the real command) is what runs and what is answered.
 */
import type { ToolCallConfirmationDetails } from '../tools/tools.js';
import { visibleText } from '../utils/visible-text.js';

const line = (text: string) => visibleText(text);
const lines = (text: string) => visibleText(text, { multiline: true });

export function visibleConfirmation(
  details: ToolCallConfirmationDetails,
): ToolCallConfirmationDetails {
  const title = line(details.title);
  switch (details.type) {
    case 'edit':
      return {
        ...details,
        title,
        fileName: line(details.fileName),
        filePath: line(details.filePath),
        fileDiff: lines(details.fileDiff),
      };
    case 'exec':
      return {
        ...details,
        title,
        // One line whatever it holds: a line break in a command is shown as \n, so the
        // person reads the whole command as it will run.
        command: line(details.command),
        rootCommands: details.rootCommands.map(line),
        ...(details.reasons ? { reasons: details.reasons.map(line) } : {}),
      };
    case 'mcp':
      return {
        ...details,
        title,
        serverName: line(details.serverName),
        toolName: line(details.toolName),
        toolDisplayName: line(details.toolDisplayName),
      };
    case 'info':
      return {
        ...details,
        title,
        prompt: lines(details.prompt),
        ...(details.urls ? { urls: details.urls.map(line) } : {}),
      };
    case 'plan':
      return { ...details, title, plan: lines(details.plan) };
    case 'elicitation':
      return {
        ...details,
        title,
        serverName: line(details.serverName),
        message: lines(details.message),
      };
    case 'elicitation_url':
      return {
        ...details,
        title,
        serverName: line(details.serverName),
        message: lines(details.message),
        url: line(details.url),
        host: line(details.host),
      };
  }
}
