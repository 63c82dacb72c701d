import os from "node:os";
import type { AddressInfo } from "node:net";
import {
  createLocalIssuer,
  type LocalIssuer,
} from "../../addin-server/src/localIssuer/createLocalIssuer.js";
import { metricsRefusal } from "../../addin-server/src/organisation/metricsAccess.js";
import { startRecordingUpstream, type RecordingUpstream } from "./support/recordingUpstream.js";
import {
  sharedPglite,
  startOrganisationGateway,
  type OrganisationGateway,
} from "./support/organisationGateway.js";

const METRICS_TOKEN = "metrics-token-4b1e9d";

/** This machine's first address that is not loopback, to reach a server from "outside". */
function outsideAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address?.family === "IPv4" && !address.internal)?.address;
}

/** The gateway's port, on any address it listens on. */
const portOf = (gateway: OrganisationGateway) => (gateway.app.server.address() as AddressInfo).port;

describe("addin-server organisation mode's /metrics", () => {
  let issuer: LocalIssuer;
  let upstream: RecordingUpstream;
  /** No metrics token, listening on every interface. */
  let open: OrganisationGateway;
  /** With a metrics token. */
  let guarded: OrganisationGateway;

  beforeAll(async () => {
    issuer = await createLocalIssuer({
      tenantId: "tenant-org",
      audience: "spellrun-addin",
      users: { "alice@example.test": ["finance"] },
    });
    upstream = await startRecordingUpstream(() => ({ status: 200, body: { runId: "r-1" } }));
    const database = await sharedPglite();
    open = await startOrganisationGateway({
      issuer,
      upstreamUrl: upstream.url,
      database,
      host: "0.0.0.0",
    });
    guarded = await startOrganisationGateway({
      issuer,
      upstreamUrl: upstream.url,
      database,
      metricsToken: METRICS_TOKEN,
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([open?.close(), guarded?.close()]);
    await Promise.all([issuer?.close(), upstream?.close()]);
  });

  it("should answer the metrics to this machine when no token is set", async () => {
    const answer = await fetch(`http://127.0.0.1:${portOf(open)}/metrics`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("spellrun_runs_started_total");
  });

  it("should refuse them to another machine when no token is set", async () => {
    const address = outsideAddress();
    if (address === undefined) {
      pending("no network interface other than loopback on this machine");
      return;
    }
    const answer = await fetch(`http://${address}:${portOf(open)}/metrics`);
    expect(answer.status).toBe(403);
    const body = await answer.text();
    expect(body).toContain("SPELLRUN_METRICS_TOKEN");
    expect(body).not.toContain("spellrun_runs_started_total");
  });

  it("should ask for the token when one is set, even on this machine, and answer with it", async () => {
    const url = `${guarded.url}/metrics`;
    for (const authorization of [undefined, "Bearer wrong-token", `Basic ${METRICS_TOKEN}`]) {
      const answer = await fetch(url, authorization ? { headers: { authorization } } : {});
      expect(answer.status).withContext(String(authorization)).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await answer.text()).not.toContain("spellrun_runs_started_total");
    }
    const answer = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("spellrun_runs_started_total");
  });

  it("should take loopback from the connection, never from a forwarded header", () => {
    expect(metricsRefusal(undefined, "127.0.0.1", undefined)).toBeUndefined();
    expect(metricsRefusal(undefined, "127.8.9.10", undefined)).toBeUndefined();
    expect(metricsRefusal(undefined, "::1", undefined)).toBeUndefined();
    expect(metricsRefusal(undefined, "::ffff:127.0.0.1", undefined)).toBeUndefined();
    for (const address of ["192.0.2.7", "::ffff:192.0.2.7", "fd00::2", "1270.0.0.1", undefined]) {
      expect(metricsRefusal(undefined, address, undefined)?.status)
        .withContext(String(address))
        .toBe(403);
    }
  });
});
