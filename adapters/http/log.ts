// Structured JSON logs, one line an event.
export type Logger = (level: 'info' | 'error', event: string, data?: Record<string, unknown>) => void;

export const jsonLogger = (min: 'info' | 'error' | 'silent', write: (line: string) => void = (l) => process.stdout.write(l)): Logger =>
  (level, event, data = {}) => {
    if (min === 'silent' || (min === 'error' && level === 'info')) return;
    write(`${JSON.stringify({ ts: new Date().toISOString(), level, event, ...data })}\n`);
  };

export const silentLogger: Logger = () => {};
