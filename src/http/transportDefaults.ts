/** Default of `SpellClientOptions.maxInFlight`, documented there. */
export const DEFAULT_MAX_IN_FLIGHT = 8;
