/**
 * No API key is set yet, so no run can start.
 *
 * ## Example
 * ```ts
 * sharedClient().catch((error) => {
 *   if (error instanceof MissingApiKeyError) openTaskPane();
 * });
 * ```
 */
export class MissingApiKeyError extends Error {
  override name = "MissingApiKeyError" as const;

  constructor() {
    super("No Spell Run API key is set. Open Spell Run (Home tab) and enter your key.");
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
