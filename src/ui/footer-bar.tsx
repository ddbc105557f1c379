import { Box, Text } from 'ink';

export type DashboardTab = 'overview' | 'blocks' | 'events';

export const DASHBOARD_TABS: readonly DashboardTab[] = ['overview', 'blocks', 'events'];

/** What a pending y/n question is about. */
export type PendingConfirm = 'pause' | 'resume';

export interface FooterBarProps {
  readonly view: DashboardTab;
  readonly confirm: PendingConfirm | undefined;
  readonly keysEnabled: boolean;
  /** Where the question applies, e.g. the admin URL. */
  readonly target: string;
  /** False for the one frame of `--once`: no keys, no updates. */
  readonly live?: boolean;
}

/** The keys line, or the pending question (y/n) when one is asked. */
export function FooterBar({ view, confirm, keysEnabled, target, live = true }: FooterBarProps) {
  if (!live) {
    return (
      <Box paddingX={1}>
        <Text dimColor wrap="truncate">
          one frame (--once); run `l2node dashboard` without --once for the live view
        </Text>
      </Box>
    );
  }
  if (confirm) {
    return (
      <Box paddingX={1}>
        <Text bold color="yellow" wrap="truncate">
          {`${confirm === 'pause' ? 'Pause' : 'Resume'} sync of ${target}? (y/n)`}
        </Text>
      </Box>
    );
  }
  if (!keysEnabled) {
    return (
      <Box paddingX={1}>
        <Text dimColor wrap="truncate">
          stdin is not a terminal: keys are off · Ctrl+C quits
        </Text>
      </Box>
    );
  }
  return (
    <Box paddingX={1}>
      <Text dimColor wrap="truncate">
        {'q quit · p pause/resume sync · Tab view: '}
        {DASHBOARD_TABS.map((v) => (v === view ? `[${v}]` : v)).join(' ')}
        {' · ? help'}
      </Text>
    </Box>
  );
}
