/** The person's changes to a proposed edit: in an editor (`modify_with_editor`) or sent inline with the approval. */
import type { AnyTool } from '../tools/tools.js';
import { editInExternalEditor } from './external-editor.js';
import type { EditProposal } from './tool-call-types.js';

type Params = Record<string, unknown>;

/**
 * Lets the person edit the call's proposal; returns the call's new parameters, or undefined
 * when the tool cannot be modified or the person kept the proposal.
 */
export async function modifyInEditor(
  tool: AnyTool,
  params: Params,
  signal: AbortSignal,
  edit: ((proposal: EditProposal) => Promise<string | undefined>) | undefined,
  preferredEditor: string | undefined,
): Promise<Params | undefined> {
  const context = tool.getModifyContext?.(signal);
  if (!context) return undefined;
  const proposal: EditProposal = {
    filePath: context.getFilePath(params),
    currentContent: await context.getCurrentContent(params),
    proposedContent: await context.getProposedContent(params),
  };
  const editor = edit ?? ((p: EditProposal) => editInExternalEditor(p, preferredEditor));
  const edited = await editor(proposal);
  if (edited === undefined || edited === proposal.proposedContent) return undefined;
  return context.createUpdatedParams(proposal.currentContent, edited, params) as Params;
}

/** The call's parameters with the content the person sent along with the approval. */
export async function withModifiedContent(
  tool: AnyTool,
  params: Params,
  signal: AbortSignal,
  newContent: string,
): Promise<Params | undefined> {
  const context = tool.getModifyContext?.(signal);
  if (!context) return undefined;
  const current = await context.getCurrentContent(params);
  return context.createUpdatedParams(current, newContent, params) as Params;
}
