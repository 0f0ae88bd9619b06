/**
 * /settings: the settings in effect, each with the layer it comes from (the user's file,
 * the project's, the system's, the environment, the command line). Secrets are masked.
 */
import path from 'node:path';
import { loadSettings, type Settings } from '@toolhost/core/config';
import type { SlashCommand } from '../command-types.js';

/** Keys whose values are secrets (the last part of the dotted key). */
const SECRET = /(apiKey|token|secret|password|authorization)$/i;
/** Objects whose every value may be a secret (a server's headers and environment). */
const SECRET_MAPS = new Set(['headers', 'env']);

export interface SettingSource {
  key: string;
  value: unknown;
  from: string;
}

/** Every leaf of `settings` as a dotted key (arrays are leaves). */
export function settingLeaves(settings: unknown, prefix = ''): [string, unknown][] {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings))
    return prefix ? [[prefix, settings]] : [];
  return Object.entries(settings as Record<string, unknown>).flatMap(([key, value]) =>
    settingLeaves(value, prefix ? `${prefix}.${key}` : key),
  );
}

function valueAt(settings: Settings, key: string): unknown {
  let at: unknown = settings;
  for (const part of key.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** The settings in effect and where each comes from: the highest layer that sets it. */
export function settingSources(
  effective: Settings,
  workspaceRoot: string,
  userDir: string,
): SettingSource[] {
  const loaded = loadSettings({ workspaceRoot, homeDir: path.dirname(userDir) });
  const layers: { name: string; settings: Settings }[] = [
    ...loaded.files.map((file) => ({
      name: `${file.scope} (${file.path})`,
      settings: file.settings,
    })),
    { name: 'environment', settings: loaded.environment },
  ];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return settingLeaves(effective).map(([key, value]) => {
    const layer = [...layers]
      .reverse()
      .find((candidate) => valueAt(candidate.settings, key) !== undefined);
    // What no file or variable says came from the command line (a flag).
    const from = layer && same(valueAt(layer.settings, key), value) ? layer.name : 'command line';
    return { key, value, from };
  });
}

function shown(key: string, value: unknown): string {
  if (SECRET.test(key) || SECRET_MAPS.has(key.split('.').at(-2) ?? ''))
    return typeof value === 'string' && value.startsWith('$') ? value : '••••••';
  return JSON.stringify(value);
}

export const settingsCommand: SlashCommand = {
  name: 'settings',
  description: 'Show the settings in effect and where each comes from',
  source: 'built-in',
  takesArguments: false,
  run(context) {
    const { config } = context;
    const sources = settingSources(config.settings, config.targetDir, config.userDir);
    const files = loadSettings({
      workspaceRoot: config.targetDir,
      homeDir: path.dirname(config.userDir),
    }).files.map((file) => `- ${file.scope}: \`${file.path}\`${file.exists ? '' : ' (none)'}`);
    const lines = sources.map(
      (source) => `- \`${source.key}\` = \`${shown(source.key, source.value)}\` · ${source.from}`,
    );
    context.print(
      [
        '**Settings in effect** (the higher layer wins: user, project, system, environment, command line)',
        lines.length > 0 ? lines.join('\n') : '- none set: every setting has its default',
        '',
        `**Files**\n${files.join('\n')}`,
        '',
        'Everything not listed has its default. Edit a file above to change a setting; it applies from the next session.',
      ].join('\n'),
    );
  },
};
