import type { Observable } from "rxjs";
import { lazyModule, type LazyModule } from "../util/lazyModule.js";
import type { SpellClientOptions } from "../types.js";
import type { ClientParts } from "./ClientParts.js";
import type { ClientSettings } from "./ClientSettings.js";
import { withModule } from "./inLoadOrder.js";

/** The exports of the client's core (`clientCore.ts`). */
export type ClientCore = typeof import("./clientCore.js");

/**
 * The client's core (transport, run slots, single runs), loaded with the first call of any
 * client: a page that imports the client and calls nothing yet loads only the client.
 */
const coreModule = lazyModule("./runs/clientCore.js", () => import("./clientCore.js"));

/**
 * How a `SpellClient` reaches its core: calls wait for it in their place among the client's
 * calls, and the client's parts are built from the settings once it has loaded.
 *
 * ## Example
 * ```ts
 * const core = clientCoreAccess(settings, options);
 * core.call((parts, { clientRun }) => clientRun(parts, "echo", { text: "hi" }, {}));
 * ```
 * @internal
 */
export interface ClientCoreAccess {
  /**
   * Work that needs the core: loads it on the first call (a failed load is a
   * `SpellCodeLoadError` for the calls waiting for it, nothing sent; the next call loads it
   * again), then starts at once.
   */
  call<T>(use: (parts: ClientParts, core: ClientCore) => Observable<T>): Observable<T>;
  /** The client's parts, once the core has loaded (not in the calls' load order). */
  parts(): Promise<ClientParts>;
}

/**
 * Gives a client's calls their core. The key stays in this closure until the core builds the
 * transport, which then holds it in private fields.
 *
 * ## Example
 * ```ts
 * const settings = clientSettings(options);
 * const core = clientCoreAccess(settings, options);
 * ```
 * @param settings the client's checked settings (and load order)
 * @param options the client's options, the key included
 * @param core the core's module (the real one unless a spec controls its load)
 * @return the client's access to its core
 * @internal
 */
export function clientCoreAccess(
  settings: ClientSettings,
  options: SpellClientOptions,
  core: LazyModule<ClientCore> = coreModule
): ClientCoreAccess {
  let parts: ClientParts | undefined;
  const partsOf = (module: ClientCore): ClientParts =>
    (parts ??= module.clientParts(settings, options));
  return {
    call: (use) => withModule(settings, core, (module) => use(partsOf(module), module)),
    parts: () => core.load().then(partsOf),
  };
}
