// Structured JSON logs, one line an event. Levels, least severe first (syslog's):
// debug (probe and scrape requests), info (a line per request), notice (start-up,
// shutdown, checkpoints), warn (something to look at: default secrets, a torn
// journal record dropped), error (a failure). LOG_LEVEL names the least shown.
export type Level = 'debug' | 'info' | 'notice' | 'warn' | 'error';
export interface Logger {
  (level: Level, event: string, data?: Record<string, unknown>): void;
  /** The least severe level it writes, when it says (jsonLogger does): callers skip building lines below it. */
  readonly min?: LogLevelSetting;
}
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

export const jsonLogger = (
  min: LogLevelSetting,
  write: (line: string) => void = (l) => process.stdout.write(l),
): Logger =>
  Object.assign(
    (level: Level, event: string, data: Record<string, unknown> = {}) => {
      if (RANK[level] < RANK[min]) return;
      write(`${JSON.stringify({ ts: new Date().toISOString(), level, event, ...data })}\n`);
    },
    { min },
  );

/** Whether a logger at `min` writes lines of `level` (to skip building lines nobody reads). */
export const logs = (min: LogLevelSetting, level: Level): boolean => RANK[level] >= RANK[min];

/** Whether `log` writes lines of `level` (a logger that does not say is taken to write all). */
export const writes = (log: Logger, level: Level): boolean => log.min === undefined || logs(log.min, level);

export const silentLogger: Logger = Object.assign(() => {}, { min: 'silent' as const });
