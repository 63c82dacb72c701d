/**
 * A setting was given a value it cannot take. The message names the setting and what it accepts;
 * it never repeats an API key.
 *
 * ## Example
 * ```ts
 * try {
 *   await saveSettings({ maxInFlight: 0 });
 * } catch (error) {
 *   if (error instanceof SettingsError) showProblem(error.setting, error.message);
 * }
 * ```
 */
export class SettingsError extends Error {
  override name = "SettingsError" as const;

  constructor(
    readonly setting: string,
    message: string
  ) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
