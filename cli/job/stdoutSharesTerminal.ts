import { fstatSync } from "node:fs";

/**
 * Whether stdout and stderr are the same terminal (`spellrun bulk … -o -` typed at a prompt):
 * a progress bar drawn in place on stderr would then be glued to the rows written on stdout.
 *
 * ## Example
 * ```ts
 * const sharesTerminal = outputPath === "-" && stdoutSharesTerminal();
 * ```
 * @return true when both are terminals, and the same device
 */
export function stdoutSharesTerminal(): boolean {
  if (!process.stdout.isTTY || !process.stderr.isTTY) return false;
  try {
    return fstatSync(1).rdev === fstatSync(2).rdev;
  } catch {
    // Cannot tell: both are terminals, take them for one.
    return true;
  }
}
