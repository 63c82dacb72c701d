import { Counter, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The gateway's Prometheus metrics, in a registry of its own (two servers in one process, as in
 * the specs, do not mix their counts): runs started, runs refused by budget, upstream errors, the organisation's key refused.
 *
 * ## Example
 * ```ts
 * const metrics = gatewayMetrics();
 * metrics.runsStarted.inc({ endpoint: "start" }, 1);
 * reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
 * ```
 *
 * @return The registry and its counters.
 */
export function gatewayMetrics(): {
  registry: Registry;
  runsStarted: Counter<"endpoint">;
  runsRefused: Counter<"reason">;
  runsRefunded: Counter<"endpoint">;
  upstreamErrors: Counter<"status">;
  keyRefused: Counter<"status">;
} {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    runsStarted: new Counter({
      name: "spellrun_runs_started_total",
      help: "Runs charged and forwarded (1 per start, the inputs of a bulkStart).",
      labelNames: ["endpoint"],
      registers: [registry],
    }),
    runsRefused: new Counter({
      name: "spellrun_runs_refused_total",
      help: "Runs refused before forwarding: budget limit, kill switch, reused request key.",
      labelNames: ["reason"],
      registers: [registry],
    }),
    runsRefunded: new Counter({
      name: "spellrun_runs_refunded_total",
      help: "Charged runs given back because the service started nothing (4xx except 408, 503).",
      labelNames: ["endpoint"],
      registers: [registry],
    }),
    upstreamErrors: new Counter({
      name: "spellrun_upstream_errors_total",
      help: "Forwarded calls answered with a 5xx (by the service, or by this server when it got no answer).",
      labelNames: ["status"],
      registers: [registry],
    }),
    keyRefused: new Counter({
      name: "spellrun_organisation_key_refused_total",
      help: "Forwarded calls the service refused for the organisation's key (answered 502 organisation_key_refused).",
      labelNames: ["status"],
      registers: [registry],
    }),
  };
}
