/**
 * Which installed extensions are on: ~/.toolhost/extension-enablement.json holds, per
 * extension, the person's choice (`enabled`) and choices for single workspaces
 * (`workspaces`: folder → on or off; the nearest folder at or above the project decides).
 * An extension nobody turned off is on. Only this file decides: nothing in a project can
 * turn an extension on.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isObject } from '../utils/json-schema.js';
import { writeOwnFile } from '../utils/own-files.js';
import { isWithin } from '../workspace/workspace-context.js';
import { ENABLEMENT_FILE } from './extension-files.js';

export type EnablementScope = 'user' | 'workspace';

interface Choice {
  enabled?: boolean;
  workspaces?: Record<string, boolean>;
}

function readChoices(userDir: string): Record<string, Choice> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(userDir, ENABLEMENT_FILE), 'utf8'));
    return isObject(parsed) ? (parsed as Record<string, Choice>) : {};
  } catch {
    return {};
  }
}

/** Whether `name` is on in `workspaceRoot`, and which choice says so. */
export function enablementOf(
  userDir: string,
  name: string,
  workspaceRoot: string,
): { enabled: boolean; by: 'default' | 'user' | 'workspace'; folder?: string } {
  const choice = readChoices(userDir)[name] ?? {};
  let nearest: { folder: string; enabled: boolean } | undefined;
  for (const [folder, enabled] of Object.entries(choice.workspaces ?? {})) {
    if (typeof enabled !== 'boolean' || !isWithin(path.resolve(folder), workspaceRoot)) continue;
    if (!nearest || folder.length > nearest.folder.length) nearest = { folder, enabled };
  }
  if (nearest) return { enabled: nearest.enabled, by: 'workspace', folder: nearest.folder };
  if (typeof choice.enabled === 'boolean') return { enabled: choice.enabled, by: 'user' };
  return { enabled: true, by: 'default' };
}

export async function setEnablement(
  userDir: string,
  name: string,
  enabled: boolean,
  scope: EnablementScope,
  workspaceRoot: string,
): Promise<void> {
  const choices = readChoices(userDir);
  const choice: Choice = { ...choices[name] };
  if (scope === 'workspace') {
    choice.workspaces = { ...choice.workspaces, [path.resolve(workspaceRoot)]: enabled };
  } else {
    // The person's choice applies everywhere: earlier choices for single workspaces go.
    choice.enabled = enabled;
    delete choice.workspaces;
  }
  choices[name] = choice;
  await writeChoices(userDir, choices);
}

/** Forgets every choice about `name` (it was uninstalled). */
export async function forgetEnablement(userDir: string, name: string): Promise<void> {
  const choices = readChoices(userDir);
  if (!(name in choices)) return;
  delete choices[name];
  await writeChoices(userDir, choices);
}

function writeChoices(userDir: string, choices: Record<string, Choice>): Promise<void> {
  return writeOwnFile(
    userDir,
    path.join(userDir, ENABLEMENT_FILE),
    `${JSON.stringify(choices, null, 2)}\n`,
  );
}
