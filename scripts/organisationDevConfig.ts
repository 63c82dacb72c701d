/**
 * What `SPELLRUN_ORGANISATION=1 npm start` adds: the files of a development organisation in
 * .spellrun/organisation/ (configuration, the emulator's key as the organisation's key, budgets,
 * the embedded ledger) and the command lines of the local issuer and of the add-in server in
 * organisation mode in front of the emulator. The dev server then proxies the add-in's calls to
 * that server instead of to the emulator (webpack.config.js, SPELLRUN_DEV_GATEWAY_PORT).
 */
import fs from "node:fs";
import path from "node:path";

/** Ports of the local issuer and the development gateway. */
export const ISSUER_PORT = Number(process.env.SPELLRUN_DEV_ISSUER_PORT || 3003);
export const GATEWAY_PORT = Number(process.env.SPELLRUN_DEV_GATEWAY_PORT || 3004);

/**
 * Writes the development organisation's files (kept when present, so the ledger and edited
 * budgets survive a restart) and returns the two commands' arguments for tsx.
 *
 * @param root The repository.
 * @param emulator The emulator's two ports and key.
 * @return The arguments of the issuer and of the gateway.
 */
export function organisationDevConfig(
  root: string,
  emulator: { port: number; pollPort: number; key: string }
): { issuerArgs: string[]; gatewayArgs: string[]; folder: string } {
  const folder = path.join(root, ".spellrun", "organisation");
  fs.mkdirSync(folder, { recursive: true });
  const write = (name: string, text: string, keep = true) => {
    const file = path.join(folder, name);
    if (!keep || !fs.existsSync(file)) fs.writeFileSync(file, text);
    return file;
  };
  // The gateway serves no add-in here (the dev server does); it needs a page to start.
  fs.mkdirSync(path.join(folder, "addin"), { recursive: true });
  write("addin/taskpane.html", "<!doctype html><title>Served by the dev server</title>");
  write("spell-key", `${emulator.key}\n`, false);
  write(
    "budgets.json",
    JSON.stringify(
      { global: { perDay: 5000 }, users: { default: { perDay: 200, perMonth: 2000 } } },
      null,
      2
    )
  );
  const tenantId = "spellrun-dev-tenant";
  const config = write(
    "organisation.json",
    JSON.stringify(
      {
        tenantId,
        clientId: "spellrun-dev-addin",
        authority: `http://127.0.0.1:${ISSUER_PORT}`,
        spellKeyFile: "spell-key",
        adminGroup: "spellrun-admins",
        database: "ledger",
        budgetsFile: "budgets.json",
        devTokenUrl: `http://127.0.0.1:${ISSUER_PORT}/${tenantId}/oauth2/v2.0/token`,
      },
      null,
      2
    ),
    false
  );
  return {
    folder,
    issuerArgs: ["addin-server/src/localIssuer/cli.ts", "--port", String(ISSUER_PORT)],
    gatewayArgs: [
      "addin-server/src/cli.ts",
      "--plain-http",
      "--host",
      "127.0.0.1",
      "--port",
      String(GATEWAY_PORT),
      "--addin-dir",
      path.join(folder, "addin"),
      "--base-url",
      `http://127.0.0.1:${emulator.port}`,
      "--poll-base-url",
      `http://127.0.0.1:${emulator.pollPort}`,
      "--organisation",
      config,
    ],
  };
}
