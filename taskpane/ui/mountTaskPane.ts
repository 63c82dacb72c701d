import css from "../taskpane.css";
import { mountOrganisationPanel } from "../../addin/organisation/mountOrganisationPanel.js";
import type { OrganisationConfig } from "../../addin/organisation/organisationConfig.js";
import { mountBulkView } from "./bulkView.js";
import type { BulkViewDeps } from "./bulkView.js";
import { element } from "./element.js";
import { registerFluent } from "./registerFluent.js";
import { mountSettingsView } from "./settingsView.js";
import { mountSpendingView, type SpendingViewDeps } from "./spendingView.js";
import type { SettingsViewDeps } from "./settingsView.js";

/**
 * Builds the whole task pane in `root`: the spending guard's question (above the tabs, so it is
 * seen wherever the user is), and two tabs, "Run" (the bulk view) and "Settings".
 *
 * ## Example
 * ```ts
 * await mountTaskPane(document.getElementById("app")!, { bulk: bulkDeps, settings: settingsDeps });
 * ```
 */
export async function mountTaskPane(
  root: HTMLElement,
  deps: {
    bulk: BulkViewDeps;
    settings: SettingsViewDeps;
    spending?: SpendingViewDeps;
    /** The add-in server's organisation mode, if it has one (`organisationConfig`). */
    organisation?: () => Promise<OrganisationConfig | undefined>;
  }
): Promise<void> {
  registerFluent();
  if (!document.getElementById("spellrun-style")) {
    document.head.append(element("style", { id: "spellrun-style" }, css));
  }
  const bulkPanel = element("fluent-tab-panel", { id: "panel-run" });
  const settingsPanel = element("fluent-tab-panel", { id: "panel-settings" });
  const spending = element("div", { id: "spending-guard" });
  if (deps.spending) mountSpendingView(spending, deps.spending);
  root.replaceChildren(
    element("header", { class: "title" }, element("h1", {}, "Spell Run")),
    spending,
    element(
      "fluent-tabs",
      { id: "tabs", activeid: "tab-run" },
      element("fluent-tab", { id: "tab-run" }, "Run"),
      element("fluent-tab", { id: "tab-settings" }, "Settings"),
      bulkPanel,
      settingsPanel
    )
  );
  const [organisation] = await Promise.all([
    deps.organisation?.(),
    mountBulkView(bulkPanel, deps.bulk),
    mountSettingsView(settingsPanel, deps.settings),
  ]);
  // The add-in's host is the organisation's gateway: sign-in instead of a key.
  if (organisation) mountOrganisationPanel(settingsPanel, organisation);
}
