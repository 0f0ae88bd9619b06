/**
 * /model: lists the models settings configure (modelProviders, and model.*) and switches
 * the session to one; the conversation goes on with it, every later request (subagents and
 * compression included) going to the new model in its own API.
 */
import {
  type ConfiguredModel,
  configuredModels,
  findModel,
  type ModelCatalog,
  PROVIDER_LABELS,
} from '@toolhost/core/conversation';
import type { CommandContext, SlashCommand } from '../command-types.js';

function catalogOf(context: CommandContext): ModelCatalog {
  return configuredModels(context.config.settings, context.config.untrustedEndpoints, process.env);
}

function isCurrent(context: CommandContext, model: ConfiguredModel): boolean {
  const now = context.agent.model.endpoint;
  return (
    model.id === now.model &&
    model.endpoint.baseUrl === now.baseUrl &&
    model.provider === (now.provider ?? 'openai')
  );
}

function describe(model: ConfiguredModel): string {
  const label = model.label === model.id ? `\`${model.id}\`` : `${model.label} (\`${model.id}\`)`;
  const missing = model.missingKey ? ` — ${model.missingKey} is not set` : '';
  return `${label}: ${PROVIDER_LABELS[model.provider]} at ${model.endpoint.baseUrl}${missing}`;
}

export const modelCommand: SlashCommand = {
  name: 'model',
  description: 'List the configured models, or switch to one: /model <number or name>',
  argumentHint: '[number|name]',
  source: 'built-in',
  takesArguments: true,
  run(context, args) {
    const catalog = catalogOf(context);
    for (const warning of catalog.warnings) context.print(warning, 'warning');
    const wanted = args.trim();
    if (!wanted) {
      const lines = catalog.models.map(
        (model, index) =>
          `${index + 1}. ${describe(model)}${isCurrent(context, model) ? ' **(now)**' : ''}`,
      );
      context.print(
        [
          `**Model**: ${context.agent.model.model}`,
          ...lines,
          '',
          catalog.models.length > 1
            ? 'Switch with /model <number or name>.'
            : 'Configure more under modelProviders in ~/.toolhost/settings.json to switch between them.',
        ].join('\n'),
      );
      return;
    }
    const model = findModel(catalog, wanted);
    if (!model) {
      context.print(
        `No configured model is called "${wanted}"; /model lists them (by number, name or family:id).`,
        'error',
      );
      return;
    }
    if (model.missingKey) {
      context.print(
        `${model.label} takes its key from ${model.missingKey}, which is not set. Set it and start toolhost again, or give the entry an apiKey.`,
        'error',
      );
      return;
    }
    if (isCurrent(context, model)) {
      context.print(`Already using ${model.label}.`);
      return;
    }
    context.agent.model.switchTo(model.endpoint);
    void context.agent.model.learnContextWindow();
    context.print(
      `Now using ${model.label} (${PROVIDER_LABELS[model.provider]} at ${model.endpoint.baseUrl}); the conversation goes on with it.`,
    );
  },
  completeArguments: (context, args) =>
    catalogOf(context)
      .models.filter((model) => model.id.startsWith(args.trim()))
      .map((model) => ({ value: model.id, description: describe(model) })),
};
