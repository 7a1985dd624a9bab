const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'table', 'dir', 'group', 'groupCollapsed'] as const;
type Method = (typeof methods)[number];

/** The console's own functions, saved before silencing so diagnostics can still reach them. */
export const originalConsole: Partial<Record<Method, (...args: unknown[]) => void>> = {};

export function silenceConsole(): void {
  for (const method of methods) {
    if (originalConsole[method]) continue;
    originalConsole[method] = console[method].bind(console) as (...args: unknown[]) => void;
    console[method] = () => {};
  }
}
