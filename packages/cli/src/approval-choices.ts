/**
 * The answers to "may this call run?", one list for every front end (the terminal dialog,
 * `toolhost call` on a terminal, editors over ACP), each with its key: `y` yes, `a` always
 * this session, `s` every tool of the server, `u` / `p` always, saved as a rule in the
 * person's or the project's settings, `e` change it first, `n` no. Numbers pick by
 * position. Saving writes the rule with the one settings writer (settings-file-edit.ts).
 */
import path from 'node:path';
import type { Config } from '@toolhost/core/config';
import { addToSettingsList, isFolderTrusted, ruleToSave } from '@toolhost/core/config';
import type { ConfirmationDecision, WaitingToolCall } from '@toolhost/core/tools';
import { isForcedQuestion, ToolConfirmationOutcome } from '@toolhost/core/tools';
import { visibleText } from '@toolhost/core/utils';

/** Settings files an "always" answer may save its rule to. */
export interface SaveTargets {
  /** The person's own settings file. */
  user: string;
  /** The project's, offered only in a folder the person trusts. */
  project?: string;
}

export interface Choice {
  label: string;
  outcome: ToolConfirmationOutcome;
  key: string;
  /** Save this rule to this file before answering. */
  save?: { rule: string; file: string; scope: 'user' | 'project' };
}

/** Where a session's "always" rules may go: the user's file, and the project's when trusted. */
export function saveTargets(config: Config): SaveTargets {
  const user = path.join(config.userDir, 'settings.json');
  const trusted =
    config.settings.security?.folderTrust?.enabled === false ||
    isFolderTrusted(config.targetDir, config.userDir);
  return trusted
    ? { user, project: path.join(config.targetDir, '.toolhost', 'settings.json') }
    : { user };
}

/**
 * The answers offered for a call. `oneShot`: the session is this one call, so the "always
 * allow ... this session" answers are left out (a plan's answers still decide its mode);
 * saved rules are still offered, since they outlive the session.
 */
export function choicesFor(
  call: WaitingToolCall,
  options: { oneShot?: boolean; saving?: SaveTargets } = {},
): Choice[] {
  const details = call.confirmationDetails;
  const once = { key: 'y', outcome: ToolConfirmationOutcome.ProceedOnce };
  if (details.type === 'plan')
    return [
      { ...once, label: 'Yes, leave plan mode and ask before each change' },
      {
        key: 'a',
        label: 'Yes, leave plan mode and approve edits automatically',
        outcome: ToolConfirmationOutcome.ProceedAlways,
      },
      { key: 'n', label: 'No', outcome: ToolConfirmationOutcome.Cancel },
    ];
  // A question a rule forces is asked again at every call: "always" would promise what
  // the next call does not keep, so it is not offered.
  const choices: Choice[] = options.oneShot
    ? [{ ...once, label: 'Yes' }]
    : [
        { ...once, label: 'Yes, this once' },
        ...(isForcedQuestion(details) ? [] : alwaysChoices(call)),
      ];
  choices.push(...savedChoices(call, options.saving));
  if (details.type === 'edit' && details.isModifiable) {
    choices.push({
      key: 'e',
      label: 'Change it in my editor first',
      outcome: ToolConfirmationOutcome.ModifyWithEditor,
    });
  }
  choices.push({ key: 'n', label: 'No', outcome: ToolConfirmationOutcome.Cancel });
  return choices;
}

/** The "always allow ... this session" answers that fit the call's kind. */
function alwaysChoices(call: WaitingToolCall): Choice[] {
  const details = call.confirmationDetails;
  const always = (label: string, outcome = ToolConfirmationOutcome.ProceedAlways): Choice => ({
    key: 'a',
    label: `Yes, and always allow ${label} this session`,
    outcome,
  });
  switch (details.type) {
    case 'mcp':
      return [
        always(visibleText(details.toolName), ToolConfirmationOutcome.ProceedAlwaysTool),
        {
          key: 's',
          label: `Yes, and always allow every tool of ${visibleText(details.serverName)} this session`,
          outcome: ToolConfirmationOutcome.ProceedAlwaysServer,
        },
      ];
    case 'exec':
      return [always(visibleText(details.rootCommands.join(', ')) || 'these commands')];
    default:
      return [always(visibleText(call.tool.name))];
  }
}

/** "Always allow", saved as a rule the next runs read too. Never for a question a rule forces. */
function savedChoices(call: WaitingToolCall, saving: SaveTargets | undefined): Choice[] {
  const details = call.confirmationDetails;
  if (!saving || isForcedQuestion(details)) return [];
  const rule = ruleToSave(call.tool.name, call.request.args, details);
  if (!rule) return [];
  const outcome =
    details.type === 'mcp'
      ? ToolConfirmationOutcome.ProceedAlwaysTool
      : ToolConfirmationOutcome.ProceedAlways;
  const shown = visibleText(rule);
  const choices: Choice[] = [
    {
      key: 'u',
      label: `Yes, and always allow ${shown} (saved in your settings)`,
      outcome,
      save: { rule, file: saving.user, scope: 'user' },
    },
  ];
  if (saving.project)
    choices.push({
      key: 'p',
      label: `Yes, and always allow ${shown} in this project (saved in .toolhost/settings.json)`,
      outcome,
      save: { rule, file: saving.project, scope: 'project' },
    });
  return choices;
}

/** The choice an answer names: its number, its key, or yes / no spelled out. */
export function pickChoice(choices: Choice[], answer: string): Choice | undefined {
  const typed = answer.trim().toLowerCase();
  if (/^[1-9]$/.test(typed)) return choices[Number(typed) - 1];
  const key = typed === 'yes' ? 'y' : typed === 'no' ? 'n' : typed;
  return choices.find((choice) => choice.key === key);
}

/**
 * The decision a choice stands for, after saving its rule when it has one. A rule that
 * cannot be saved still lets the call run (the person said yes); the notice says why.
 */
export async function decisionFor(
  choice: Choice,
): Promise<{ decision: ConfirmationDecision; notice?: string }> {
  const decision = { outcome: choice.outcome };
  if (!choice.save) return { decision };
  const { rule, file, scope } = choice.save;
  try {
    const added = await addToSettingsList(
      { file, followLink: scope === 'user' },
      ['permissions', 'allow'],
      rule,
    );
    return {
      decision,
      notice: added
        ? `Saved ${rule} to ${file} (permissions.allow).`
        : `${rule} is already in ${file}.`,
    };
  } catch (error) {
    return { decision, notice: `The rule ${rule} was not saved: ${(error as Error).message}` };
  }
}
