/**
 * Whether an error is a write to a pipe whose reader has gone (`spellrun --help | head -1`,
 * `| true`): the reader has all it wanted, which is no failure of the command.
 */
function isClosedPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "EPIPE";
}

function onStreamError(error: Error): void {
  if (!isClosedPipe(error)) throw error;
}

/**
 * Writes text (help, usage, a version, a single run's outputs) to a standard stream so that a
 * reader that went away ends nothing badly: EPIPE is ignored (as a SIGPIPE ends a GNU tool
 * quietly), the exit code stays what the command set, and no stack trace is printed. Any other
 * stream error is thrown as before. A long job (bulk) handles a closed output its own way.
 *
 * ## Example
 * ```ts
 * writeIgnoringClosedPipe(process.stdout, helpText); // `spellrun --help | true` exits 0
 * ```
 * @param stream process.stdout or process.stderr
 * @param text the text
 */
export function writeIgnoringClosedPipe(stream: NodeJS.WriteStream, text: string): void {
  if (!stream.listeners("error").includes(onStreamError)) stream.on("error", onStreamError);
  stream.write(text);
}
