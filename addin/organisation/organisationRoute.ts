import type { ServiceRoute } from "../serviceRoute.js";
import { organisationConfig, type OrganisationConfig } from "./organisationConfig.js";

/**
 * The organisation mode of the add-in's host, and the route the add-in calls the service by. The
 * host's `/org/config` is asked whatever route Settings hold (once per runtime), so an add-in
 * whose stored route is "Directly" (an earlier build's default, a user's choice before the
 * organisation moved in) finds its organisation on first load. In organisation mode the route
 * is the add-in's host: the gateway holds the key, counts the budgets and has the kill switch,
 * and Settings hide the route; otherwise it is the stored one.
 *
 * ## Example
 * ```ts
 * const { organisation, serviceRoute } = await organisationRoute(settings);
 * const addresses = serviceAddresses({ ...settings, serviceRoute });
 * ```
 *
 * @param settings The stored route.
 * @param askHost Asks the host's `/org/config` (default `organisationConfig`; specs pass theirs).
 * @return The organisation's configuration (`undefined` for a plain host) and the route to call.
 */
export async function organisationRoute(
  settings: { serviceRoute: ServiceRoute },
  askHost: () => Promise<OrganisationConfig | undefined> = () => organisationConfig()
): Promise<{ organisation: OrganisationConfig | undefined; serviceRoute: ServiceRoute }> {
  const organisation = await askHost();
  return { organisation, serviceRoute: organisation ? "addinHost" : settings.serviceRoute };
}
