/**
 * How many entries the store's limits have cost so far (since it was made): each was paid for,
 * and may be paid again.
 */
export interface ResultStoreLosses {
  /**
   * Results taken out of storage to make room: a reload no longer reuses them (memory may still
   * hold them until then).
   */
  resultsNotStored: number;
  /**
   * Records of started runs taken out of storage (only when no result was left to take): a
   * reload while such a run is still going sends it again.
   */
  startedRunsNotStored: number;
  /**
   * Results in neither memory nor storage any more (some of them counted in `resultsNotStored`
   * too): the next calculation runs them again.
   */
  resultsForgotten: number;
  /**
   * Flushes storage refused (full with other data, or unavailable): what they held is reused
   * until a reload only.
   */
  writesRefused: number;
}

/**
 * Losses of a store that has lost nothing yet.
 *
 * @internal
 * @return every count at 0
 */
export function noLosses(): ResultStoreLosses {
  return { resultsNotStored: 0, startedRunsNotStored: 0, resultsForgotten: 0, writesRefused: 0 };
}
