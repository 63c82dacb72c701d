/**
 * The Spell Run service's addresses are not set yet, so no run can start: a production build made
 * without `SPELL_BASE_URL` leaves them for the user to enter, rather than guessing a local
 * service that is not there. The message says which and where to set them.
 *
 * ## Example
 * ```ts
 * if (!settings.baseUrl) throw new ServiceAddressNotSetError(["baseUrl"]);
 * ```
 */
export class ServiceAddressNotSetError extends Error {
  override name = "ServiceAddressNotSetError" as const;

  /** @param settings The addresses that are empty. */
  constructor(readonly settings: readonly ("baseUrl" | "pollBaseUrl")[]) {
    const labels = settings.map((setting) =>
      setting === "baseUrl" ? "Base URL" : "Poll base URL"
    );
    super(
      `The Spell Run service address is not set (${labels.join(", ")}). Open Spell Run (Home tab) and enter it under Settings.`
    );
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
