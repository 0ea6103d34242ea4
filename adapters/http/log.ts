// Structured JSON logs, one line an event. Levels: info (every request), notice
// (start-up, shutdown, checkpoints), error. LOG_LEVEL names the least shown.
export type Level = 'info' | 'notice' | 'error';
export type Logger = (level: Level, event: string, data?: Record<string, unknown>) => void;

const RANK: Record<Level | 'silent', number> = { info: 0, notice: 1, error: 2, silent: 3 };

export const jsonLogger = (min: Level | 'silent', write: (line: string) => void = (l) => process.stdout.write(l)): Logger =>
  (level, event, data = {}) => {
    if (RANK[level] < RANK[min]) return;
    write(`${JSON.stringify({ ts: new Date().toISOString(), level, event, ...data })}\n`);
  };

export const silentLogger: Logger = () => {};
