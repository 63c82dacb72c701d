/**
 * The rule of `--public-host`, checked once at start: `name` or `name:port` as users reach the
 * server (a DNS name, an IPv4 address or a bracketed IPv6 address; no scheme, path or user).
 *
 * - `name`: any request whose `Host` names it, on any port (the server may listen on 8443 behind
 *   a load balancer on 443, or be reached on 8443 directly);
 * - `name:port`: that port only; `name:443` also matches a `Host` without a port, which is how a
 *   browser names https' default port.
 *
 * Names compare without case and without a trailing dot.
 *
 * ## Example
 * ```ts
 * const allowed = publicHostMatcher("excel-spells.example.com:8443");
 * allowed("Excel-Spells.example.com:8443"); // true
 * allowed("excel-spells.example.com"); // false (port 443)
 * ```
 *
 * @param publicHost The configured host.
 * @return A test of a request's `Host` header.
 * @throws Error saying what to write when the value is not a host.
 */
export function publicHostMatcher(publicHost: string): (host: string | undefined) => boolean {
  const wanted = splitHost(publicHost);
  if (!wanted) {
    throw new Error(
      `publicHost must be a host name with an optional port, e.g. excel-spells.example.com or excel-spells.example.com:8443, got "${publicHost}".`
    );
  }
  return (host) => {
    const got = host === undefined ? undefined : splitHost(host);
    if (!got || got.name !== wanted.name) return false;
    if (wanted.port === undefined) return true;
    return (got.port ?? "443") === wanted.port;
  };
}

const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]{0,62}\.?)*)(?::(\d{1,5}))?$/i;

/** A Host header's name (lower case, no trailing dot) and port, or undefined for no host. */
function splitHost(value: string): { name: string; port: string | undefined } | undefined {
  const match = HOST.exec(value.trim());
  if (!match) return undefined;
  const port = match[2] === undefined ? undefined : String(Number(match[2]));
  return { name: match[1].toLowerCase().replace(/\.$/, ""), port };
}
