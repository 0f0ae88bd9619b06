import type { ApprovalMode } from '@toolhost/core/config';
import { Box, Text } from 'ink';
import { useUi } from '../ui-context.js';

const MODE_LABELS: Record<ApprovalMode, string> = {
  default: 'ask before changes',
  'auto-edit': 'auto-accept edits',
  plan: 'plan mode',
  yolo: 'yolo: approve everything',
};

export interface StatusLineProps {
  model: string;
  approvalMode: ApprovalMode;
  contextLeftPercent: number | undefined;
  folder: string;
  branch: string | undefined;
}

/** The line under the prompt: model, approval mode, context left, folder and branch. */
export function StatusLine(props: StatusLineProps) {
  const { theme, width } = useUi();
  const modeColor =
    props.approvalMode === 'default'
      ? theme.muted
      : props.approvalMode === 'yolo'
        ? theme.error
        : props.approvalMode === 'plan'
          ? theme.accent
          : theme.warning;
  const { hint, right } = fitStatus(props, width);
  return (
    <Box width={width} justifyContent="space-between">
      <Text wrap="truncate-end">
        <Text color={modeColor}>{MODE_LABELS[props.approvalMode]}</Text>
        <Text color={theme.muted}>{hint}</Text>
      </Text>
      <Text color={theme.muted} wrap="truncate-start">
        {right}
      </Text>
    </Box>
  );
}

/** The status text made to fit the width: the folder shortened first, then the key hint dropped. */
export function fitStatus(props: StatusLineProps, width: number): { hint: string; right: string } {
  const mode = MODE_LABELS[props.approvalMode];
  const context =
    props.contextLeftPercent === undefined ? '' : `${props.contextLeftPercent}% context left`;
  const branch = props.branch ? ` (${props.branch})` : '';
  const folders = [props.folder, `…/${props.folder.split('/').filter(Boolean).at(-1) ?? ''}`];
  for (const hint of [' (shift+tab)', '']) {
    for (const folder of folders) {
      const right = [props.model, context, `${folder}${branch}`].filter(Boolean).join(' · ');
      if (mode.length + hint.length + 2 + right.length <= width) return { hint, right };
    }
  }
  return { hint: '', right: [props.model, context].filter(Boolean).join(' · ') };
}
