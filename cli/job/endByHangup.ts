import { isatty } from "node:tty";
import { EXIT_CODES } from "../errors/exitCodes.js";

/**
 * Makes a command that stopped on SIGHUP end by that signal's default action, once everything
 * else is done (call it after the command has returned: its `exit` listeners, the journal
 * lock's among them, are registered before this one and run first).
 *
 * Node puts back the terminal modes of a standard stream that was a terminal at start as it
 * exits, and aborts (SIGABRT, a native stack trace on stderr, a core file where enabled) when
 * that terminal is gone, which is what SIGHUP means (nodejs/node#51519). A process ended by
 * SIGHUP itself skips that step; its shell sees 129, as documented. Without a terminal at start
 * (a pipe, a file, `kill -HUP`), node has no modes to put back and the exit code 129 stays.
 *
 * ## Example
 * ```ts
 * const onTerminal = startedOnTerminal();
 * await program.parseAsync(process.argv);
 * endByHangup(onTerminal);
 * ```
 * @param terminalAtStart whether stdin, stdout or stderr was a terminal when the process started
 */
export function endByHangup(terminalAtStart: boolean): void {
  if (!terminalAtStart) return;
  process.once("exit", (code) => {
    if (code !== EXIT_CODES.hangup) return;
    // With no listener left, the signal takes its default action: the process ends at once.
    process.removeAllListeners("SIGHUP");
    process.kill(process.pid, "SIGHUP");
  });
}

/**
 * Whether stdin, stdout or stderr is a terminal (asked at start: a terminal that hung up no
 * longer answers as one).
 *
 * ## Example
 * ```ts
 * const onTerminal = startedOnTerminal();
 * ```
 * @return true when one of the three is a terminal
 */
export function startedOnTerminal(): boolean {
  return [0, 1, 2].some((fd) => isatty(fd));
}
