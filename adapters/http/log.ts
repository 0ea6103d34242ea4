// Structured JSON logs, one line an event. Levels, least severe first (syslog's):
// debug (probe and scrape requests), info (a line per request), notice (start-up,
// shutdown, checkpoints), warn (something to look at: default secrets, a torn
// journal record dropped), error (a failure). LOG_LEVEL names the least shown.
export type Level = 'debug' | 'info' | 'notice' | 'warn' | 'error';
export type Logger = (level: Level, event: string, data?: Record<string, unknown>) => void;
export type LogLevelSetting = Level | 'silent';

export const LOG_LEVELS: ReadonlyArray<LogLevelSetting> = ['debug', 'info', 'notice', 'warn', 'error', 'silent'];
const RANK: Record<LogLevelSetting, number> = { debug: 0, info: 1, notice: 2, warn: 3, error: 4, silent: 5 };

/** LOG_LEVEL's value, with the usual spellings of the same levels (warning, err, fatal, off). */
export const parseLogLevel = (v: string): LogLevelSetting | undefined => {
  const s = v.trim().toLowerCase();
  const alias: Record<string, LogLevelSetting> = {
    warning: 'warn',
    err: 'error',
    fatal: 'error',
    off: 'silent',
    none: 'silent',
    trace: 'debug',
  };
  return (LOG_LEVELS as ReadonlyArray<string>).includes(s) ? (s as LogLevelSetting) : alias[s];
};

export const jsonLogger =
  (min: LogLevelSetting, write: (line: string) => void = (l) => process.stdout.write(l)): Logger =>
  (level, event, data = {}) => {
    if (RANK[level] < RANK[min]) return;
    write(`${JSON.stringify({ ts: new Date().toISOString(), level, event, ...data })}\n`);
  };

/** Whether a logger at `min` writes lines of `level` (to skip building lines nobody reads). */
export const logs = (min: LogLevelSetting, level: Level): boolean => RANK[level] >= RANK[min];

export const silentLogger: Logger = () => {};
