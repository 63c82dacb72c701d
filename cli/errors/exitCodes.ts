/**
 * The exit codes of `spellrun`, one meaning each, so scripts can branch on them.
 *
 * | Code | Meaning |
 * | ---- | ------- |
 * | 0    | every run ended in `success` (or `--dry-run`, `status` of a complete job) |
 * | 1    | the job finished, but some rows ended `failure`, `error`, `cancelled`, `unknown` or `expired` |
 * | 2    | usage: a bad option, no API key, a journal that does not fit |
 * | 3    | bad input: unreadable file, malformed CSV/JSONL line (the message names the line) |
 * | 4    | the service refused the job: nothing was started (wrong key, unknown spell, service down) |
 * | 5    | the service failed after runs were started (no answer to a start, a read failing, poll limit); resume |
 * | 6    | the journal is in use by another spellrun (its lock file): nothing was started |
 * | 129  | stopped by SIGHUP (the terminal closed), as Ctrl-C; resumable |
 * | 130  | interrupted by Ctrl-C; the job can be resumed |
 * | 141  | the output pipe closed (`-o - \| head`), as Ctrl-C, quietly |
 * | 143  | stopped by SIGTERM (`timeout`, `docker stop`, a CI cancel), as Ctrl-C; resumable |
 *
 * ## Example
 * ```ts
 * process.exitCode = failedRows > 0 ? EXIT_CODES.someRowsFailed : EXIT_CODES.success;
 * ```
 */
export const EXIT_CODES = Object.freeze({
  success: 0,
  someRowsFailed: 1,
  usage: 2,
  badInput: 3,
  service: 4,
  serviceUnfinished: 5,
  locked: 6,
  hangup: 129,
  interrupted: 130,
  pipeClosed: 141,
  terminated: 143,
} as const);

/**
 * One of the values of `EXIT_CODES`.
 *
 * ## Example
 * ```ts
 * const code: ExitCode = EXIT_CODES.usage;
 * ```
 */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
