/**
 * Fault injection for the crash suites (issue 16): with CRASH_AT set, the process kills itself
 * (SIGKILL: no shutdown, no flush, as the OOM killer or a lost machine would) when a checkout
 * reaches that step. Unset, as always outside those suites, every point does nothing.
 */
export const CRASH_POINTS = [
  /** Inside the order's transaction: stock taken and the order written, not committed. */
  'order-transaction',
  /** The provider has captured the payment; the shop has not recorded it. */
  'after-capture',
  /** A webhook's work is done; the event is not yet recorded as handled. */
  'webhook-handled',
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

/** The function a service calls at each point: kills the process at the armed one. */
export function crashSwitch(armed: CrashPoint | null): (point: CrashPoint) => void {
  if (!armed) return () => {};
  return (point) => {
    if (point === armed) process.kill(process.pid, 'SIGKILL');
  };
}
