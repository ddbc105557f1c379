import { Box, Text } from 'ink';
import type { ReactNode } from 'react';

export interface PanelProps {
  readonly title: string;
  readonly children: ReactNode;
  readonly width?: number | string;
  readonly height?: number;
  readonly flexGrow?: number;
  /** Shown after the title, dimmed (a count, a hint). */
  readonly note?: string;
}

/** A titled, rounded box: the frame every panel of the dashboard sits in. Content past its height is cut. */
export function Panel({ title, children, width, height, flexGrow, note }: PanelProps) {
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor="gray"
      paddingX={1}
      width={width}
      height={height}
      flexGrow={flexGrow}
      flexBasis={flexGrow === undefined ? undefined : 0}
      overflow="hidden"
    >
      <Text wrap="truncate">
        <Text bold color="cyan">
          {title}
        </Text>
        {note ? <Text dimColor>{`  ${note}`}</Text> : null}
      </Text>
      {children}
    </Box>
  );
}
