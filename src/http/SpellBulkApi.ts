import { map, tap, type Observable } from "rxjs";
import { countRunStates } from "../countRunStates.js";
import type { SpellEndpoints } from "./SpellEndpoints.js";
import { SpellApi } from "./SpellApi.js";
import { parseBulkRuns } from "./parseBulkRuns.js";
import { parseGroupId, toRunState, type BulkRunAnswer } from "./parseResponses.js";

/**
 * The transport with the endpoints only bulk runs and batches use (bulkStart, getBulkRuns) and
 * the probes of `SpellClient.checkConnection`: loaded with the first of them, it shares the
 * client's request slots, rate-limit pause, key and log (`SpellApi.sharedAs`).
 *
 * ## Example
 * ```ts
 * const api = client.parts.api.sharedAs(SpellBulkApi);
 * api.getBulkRuns("bulk-1").subscribe((runs) => console.log(runs.length));
 * ```
 * @internal
 */
export class SpellBulkApi extends SpellApi implements SpellEndpoints {
  bulkStartOnce(
    spellId: string,
    inputsList: readonly Record<string, unknown>[],
    onSent?: () => void
  ): Observable<string> {
    const target = this.target("bulkStart");
    return this.send(target, { spellId, inputs: inputsList }, { onSent }).pipe(
      map((body) => parseGroupId(body, target))
    );
  }

  getBulkRuns(groupId: string): Observable<BulkRunAnswer[]> {
    const target = this.target("getBulkRuns");
    return this.send(target, { groupId }, { ids: { groupId } }).pipe(
      this.retry(target, { groupId }),
      map((body) => parseBulkRuns(body, target)),
      tap((answers) =>
        this.log(() => ({
          type: "poll",
          ...target,
          groupId,
          runs: answers.length,
          counts: countRunStates(answers.map((answer) => ({ state: toRunState(answer.state) }))),
        }))
      )
    );
  }

  /**
   * getBulkRuns on the base host and getRun on the poll host for `probeId`, each sent once (no
   * retry) and unparsed: the harmless questions of `SpellClient.checkConnection`.
   */
  probeHosts(probeId: string): { base: Observable<unknown>; poll: Observable<unknown> } {
    return {
      base: this.send(this.target("getBulkRuns"), { groupId: probeId }),
      poll: this.send(this.target("getRun", probeId)),
    };
  }

  /**
   * Whether a host that gave no readable answer answers at all: one keyless `no-cors` GET of its
   * probe URL. A browser resolves it with an opaque response when the host answered (its answer
   * was withheld for want of CORS consent) and rejects it when nothing answered; where there is
   * no CORS (Node) there is no opaque response, so this says `false`. Never sends the key.
   */
  async answersWithoutCorsConsent(host: "base" | "poll", probeId: string): Promise<boolean> {
    const { url } = host === "base" ? this.target("getBulkRuns") : this.target("getRun", probeId);
    try {
      const response = await this.fetchFn(url, {
        method: "GET",
        mode: "no-cors",
        credentials: "omit",
        // A no-cors request must follow redirects (browsers refuse others); it carries no key.
        redirect: "follow",
        signal: AbortSignal.timeout(this.readTimeoutMs),
      });
      return response.type === "opaque";
    } catch {
      return false;
    }
  }
}
