import { isRetryAfterNoAnswer, type SpellLogger } from "spellrun";

/**
 * A client logger that prints one line as soon as a host does not answer and the request will
 * be sent again, e.g.
 * `spellrun: no answer from http://127.0.0.1:3001 yet; retrying (Ctrl-C to stop)…`,
 * once per host. Without it the command stays silent through the whole retry schedule (about
 * 9 s) before it says that nothing answered. The final message and exit code do not change,
 * and neither do the retries: this only listens.
 *
 * ## Example
 * ```ts
 * const client = new SpellClient({ ...connection, logger: noAnswerNotice((line) => process.stderr.write(line)) });
 * ```
 * @param write where the line goes (with its line break)
 * @return a logger for `SpellClientOptions.logger`
 */
export function noAnswerNotice(write: (line: string) => void): SpellLogger {
  const told = new Set<string>();
  return (event) => {
    if (!isRetryAfterNoAnswer(event)) return;
    // The origin only: the URL of a getRun holds a run id, and no URL ever holds the key.
    const host = new URL(event.url).origin;
    if (told.has(host)) return;
    told.add(host);
    write(`spellrun: no answer from ${host} yet; retrying (Ctrl-C to stop)…\n`);
  };
}
