import { readFileSync, unwatchFile, watchFile } from "node:fs";

/**
 * A file read at start and again whenever it changes (polled, so a replaced file or a Kubernetes
 * secret's symlink swap is seen too) or `reload()` is called (SIGHUP): the key, the budgets and
 * the groups file change without a restart. A changed file that does not parse keeps the last
 * good value and reports the error; at start it throws.
 *
 * ## Example
 * ```ts
 * const budgets = new WatchedFile("/etc/spellrun/budgets.json", (text) => parseBudgets(text, file), log);
 * budgets.current; // the latest good value
 * ```
 */
export class WatchedFile<T> {
  #value: T;

  /**
   * @param file The file.
   * @param parse Turns its text into the value, or throws an Error saying what is wrong.
   * @param onError Told when a changed file is refused (the message never holds the text).
   * @param intervalMs How often the file's status is checked.
   */
  constructor(
    readonly file: string,
    private readonly parse: (text: string) => T,
    private readonly onError: (error: Error) => void,
    intervalMs = 1000
  ) {
    this.#value = parse(readFileSync(file, "utf8"));
    watchFile(file, { interval: intervalMs, persistent: false }, () => this.reload());
  }

  /** The latest good value. */
  get current(): T {
    return this.#value;
  }

  /** Reads the file again now. */
  reload(): void {
    try {
      this.#value = this.parse(readFileSync(this.file, "utf8"));
    } catch (error) {
      this.onError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Stops watching. */
  close(): void {
    unwatchFile(this.file);
  }
}
