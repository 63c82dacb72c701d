import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { AddinServerOptions } from "./AddinServerOptions";
import { OFFICE_FRAME_ANCESTORS } from "./contentSecurityPolicy";
import { readOrganisationConfig } from "./organisation/readOrganisationConfig";
import { publicHostMatcher } from "./publicHost";

/** The command's help text. */
export const SERVER_USAGE = `Usage: spellrun-addin-server [options]      (from a clone: npm run serve-addin -- [options])

Serves the built add-in (npm run build) over HTTPS and forwards its calls to the Spell service:
/spell-api/spells/* to --base-url and /spell-poll/spells/getRun to --poll-base-url, so the service
needs no CORS. Every option can also be set with the environment variable in brackets.

  --addin-dir <dir>        the built add-in            [SPELLRUN_ADDIN_DIR, default dist/addin]
  --base-url <url>         host of start, bulkStart, cancelBulk, getBulkRuns  [SPELL_BASE_URL]
  --poll-base-url <url>    host of getRun                                [SPELL_POLL_BASE_URL]
  --tls-cert <file>        TLS certificate chain (PEM)            [SPELLRUN_ADDIN_TLS_CERT_FILE]
  --tls-key <file>         TLS private key (PEM)                   [SPELLRUN_ADDIN_TLS_KEY_FILE]
  --plain-http             no TLS: only behind a load balancer that terminates HTTPS
                                                            [SPELLRUN_ADDIN_PLAIN_HTTP=1]
  --host <address>         address to listen on       [SPELLRUN_ADDIN_HOST, default 0.0.0.0]
  --port <n>               port to listen on               [SPELLRUN_ADDIN_PORT, default 8443]
  --public-host <host[:port]>  refuse requests naming another Host (a name alone: any port)
                                                           [SPELLRUN_ADDIN_PUBLIC_HOST]
  --connect-src <origins>  service origins the page may call "Directly" (comma list)
                                                           [SPELLRUN_ADDIN_CONNECT_SRC]
  --frame-ancestors <origins>  who may frame the pane (comma list; "default" stands for
                           Office's and Teams' origins)  [SPELLRUN_ADDIN_FRAME_ANCESTORS]
  --body-limit <bytes>     largest request body       [SPELLRUN_ADDIN_BODY_LIMIT, 10485760]
  --request-timeout-ms <ms>  total time limit of a forwarded call
                                         [SPELLRUN_ADDIN_REQUEST_TIMEOUT_MS, 150000]
  --receive-timeout-ms <ms>  total time limit for receiving a request
                                          [SPELLRUN_ADDIN_RECEIVE_TIMEOUT_MS, 30000]
  --organisation <file>    organisation mode: users sign in, the server holds the Spell key,
                           budgets and a usage ledger (docs/deploy.md)  [SPELLRUN_ORG_CONFIG];
                           its /metrics needs SPELLRUN_METRICS_TOKEN as a bearer token, or
                           answers this machine only when that is unset
  --help                   this text

spellrun-addin-server usage --organisation <file>: the organisation's usage (--help for more).

GET /healthz answers {"status":"ok"}. SIGTERM or SIGINT: stops taking requests, lets the ones in
flight finish, exits.`;

/** What the command should do: print the help, or listen with these options. */
export type ServerCommand =
  { help: true } | { help: false; options: AddinServerOptions; host: string; port: number };

/**
 * Reads the command line and the environment (flags win) into the server's options, or throws an
 * Error whose message says what to fix.
 *
 * ## Example
 * ```ts
 * const command = parseServerArguments(process.argv.slice(2), process.env);
 * ```
 *
 * @param argv The arguments after the command.
 * @param env The environment.
 * @return The command.
 */
export function parseServerArguments(argv: string[], env: NodeJS.ProcessEnv): ServerCommand {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      "addin-dir": { type: "string" },
      "base-url": { type: "string" },
      "poll-base-url": { type: "string" },
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "plain-http": { type: "boolean" },
      host: { type: "string" },
      port: { type: "string" },
      "public-host": { type: "string" },
      "connect-src": { type: "string" },
      "frame-ancestors": { type: "string" },
      "receive-timeout-ms": { type: "string" },
      "body-limit": { type: "string" },
      "request-timeout-ms": { type: "string" },
      organisation: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return { help: true };
  const serviceBaseUrl = values["base-url"] ?? env.SPELL_BASE_URL;
  const servicePollBaseUrl = values["poll-base-url"] ?? env.SPELL_POLL_BASE_URL;
  if (!serviceBaseUrl || !servicePollBaseUrl) {
    throw new Error(
      "Name the Spell service: --base-url and --poll-base-url (or SPELL_BASE_URL and SPELL_POLL_BASE_URL)."
    );
  }
  const certFile = values["tls-cert"] ?? env.SPELLRUN_ADDIN_TLS_CERT_FILE;
  const keyFile = values["tls-key"] ?? env.SPELLRUN_ADDIN_TLS_KEY_FILE;
  const plainHttp = values["plain-http"] ?? /^(1|true)$/i.test(env.SPELLRUN_ADDIN_PLAIN_HTTP ?? "");
  if (Boolean(certFile) !== Boolean(keyFile)) {
    throw new Error("Give both --tls-cert and --tls-key.");
  }
  if (!certFile && !plainHttp) {
    throw new Error(
      "Excel loads add-ins over HTTPS only: give --tls-cert and --tls-key, or --plain-http when a load balancer in front terminates HTTPS."
    );
  }
  const publicHost = values["public-host"] ?? env.SPELLRUN_ADDIN_PUBLIC_HOST;
  // Checked here so a wrong value stops the command with its message.
  if (publicHost) publicHostMatcher(publicHost);
  const connectSources = commaList(values["connect-src"] ?? env.SPELLRUN_ADDIN_CONNECT_SRC);
  const frameAncestors = commaList(
    values["frame-ancestors"] ?? env.SPELLRUN_ADDIN_FRAME_ANCESTORS
  ).flatMap((source) => (source === "default" ? OFFICE_FRAME_ANCESTORS : [source]));
  const receiveTimeout = values["receive-timeout-ms"] ?? env.SPELLRUN_ADDIN_RECEIVE_TIMEOUT_MS;
  const bodyLimit = values["body-limit"] ?? env.SPELLRUN_ADDIN_BODY_LIMIT;
  const requestTimeout = values["request-timeout-ms"] ?? env.SPELLRUN_ADDIN_REQUEST_TIMEOUT_MS;
  const organisationFile = values.organisation ?? env.SPELLRUN_ORG_CONFIG;
  return {
    help: false,
    host: values.host ?? env.SPELLRUN_ADDIN_HOST ?? "0.0.0.0",
    port: wholeNumber("--port", values.port ?? env.SPELLRUN_ADDIN_PORT ?? "8443", 0),
    options: {
      addinDir: values["addin-dir"] ?? env.SPELLRUN_ADDIN_DIR ?? "dist/addin",
      serviceBaseUrl,
      servicePollBaseUrl,
      ...(certFile && keyFile
        ? { tls: { cert: readFileSync(certFile), key: readFileSync(keyFile) } }
        : {}),
      ...(publicHost ? { publicHost } : {}),
      ...(connectSources.length > 0 ? { connectSources } : {}),
      ...(frameAncestors.length > 0
        ? { frameAncestors: frameAncestorSources(frameAncestors) }
        : {}),
      ...(receiveTimeout
        ? { receiveTimeoutMs: wholeNumber("--receive-timeout-ms", receiveTimeout, 1) }
        : {}),
      ...(bodyLimit ? { bodyLimitBytes: wholeNumber("--body-limit", bodyLimit, 1) } : {}),
      ...(requestTimeout
        ? { requestTimeoutMs: wholeNumber("--request-timeout-ms", requestTimeout, 1) }
        : {}),
      ...(organisationFile
        ? {
            organisation: {
              ...readOrganisationConfig(organisationFile),
              // From the environment only: a token on the command line shows in `ps`.
              ...(env.SPELLRUN_METRICS_TOKEN ? { metricsToken: env.SPELLRUN_METRICS_TOKEN } : {}),
            },
          }
        : {}),
    },
  };
}

function commaList(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** CSP host sources: https origins, with `*.` for subdomains; nothing that widens to any host. */
function frameAncestorSources(sources: string[]): string[] {
  for (const source of sources) {
    if (!/^https:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(source)) {
      throw new Error(
        `--frame-ancestors takes https origins such as https://*.office365.us or "default", got "${source}".`
      );
    }
  }
  return [...new Set(sources)];
}

function wholeNumber(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, got "${text}".`);
  }
  return value;
}
