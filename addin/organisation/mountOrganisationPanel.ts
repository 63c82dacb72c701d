import type { OrganisationConfig } from "./organisationConfig.js";
import { onSignedInUser, organisationToken, signInForDevelopment } from "./organisationSignIn.js";

/**
 * Shows the organisation mode at the top of Settings: who is signed in, that the organisation
 * holds the Spell key, and a Sign in button (with a user name field for the development issuer).
 * The key field and its hint, the key's header and the route to the service (with its addresses)
 * are hidden: in this mode the add-in never asks for a key and every call goes through the
 * server, so the form's route is set to the add-in's host. Text is set as text, never markup.
 *
 * ## Example
 * ```ts
 * const organisation = await organisationConfig();
 * if (organisation) mountOrganisationPanel(settingsPanel, organisation);
 * ```
 *
 * @param settingsPanel The Settings tab's panel, already built.
 * @param config The server's organisation mode.
 */
export function mountOrganisationPanel(
  settingsPanel: HTMLElement,
  config: OrganisationConfig
): void {
  for (const keyPart of settingsPanel.querySelectorAll(
    ".key-row, .key-row + .hint, [data-server-held]"
  )) {
    keyPart.setAttribute("hidden", "");
    keyPart.setAttribute("data-server-held", "");
  }
  // Calls go through the server (it adds the key): a stored "Directly" would bypass it, so the
  // form's route is the add-in's host, saved with the next Save.
  const route = settingsPanel.querySelector<HTMLElement & { value: string }>("#service-route");
  if (route && route.value !== "addinHost") {
    route.value = "addinHost";
    route.dispatchEvent(new Event("change"));
  }
  const who = document.createElement("p");
  who.id = "organisation-user";
  who.setAttribute("role", "status");
  const held = document.createElement("p");
  held.className = "hint";
  held.textContent =
    "Your organisation holds the Spell key: you sign in with your work account, no key is stored here.";
  const user = document.createElement("fluent-text-field");
  user.id = "organisation-dev-user";
  user.textContent = "User (development sign-in)";
  const signIn = document.createElement("fluent-button");
  signIn.id = "organisation-sign-in";
  signIn.setAttribute("appearance", "accent");
  signIn.textContent = "Sign in";
  const problem = document.createElement("p");
  problem.className = "status";
  problem.setAttribute("role", "alert");

  const panel = document.createElement("section");
  panel.id = "organisation";
  panel.setAttribute("aria-label", "Organisation sign-in");
  panel.append(who, held, ...(config.devSignIn ? [user] : []), signIn, problem);
  settingsPanel.prepend(panel);

  onSignedInUser((name) => {
    who.textContent = name ? `Signed in as ${name}.` : "Not signed in: sign in to run spells.";
    signIn.textContent = name ? "Sign in again" : "Sign in";
  });
  signIn.addEventListener("click", () => {
    problem.textContent = "";
    const name = String((user as HTMLInputElement).value ?? "").trim();
    const signingIn = config.devSignIn ? signInForDevelopment(name) : organisationToken(config);
    signingIn.catch((error: unknown) => {
      problem.textContent = error instanceof Error ? error.message : String(error);
    });
  });
}
