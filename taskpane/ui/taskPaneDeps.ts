import { defer, from, switchMap } from "rxjs";
import { clearRememberedResults } from "../../addin/rememberedResults.js";
import { spendingGuard } from "../../addin/spendingGuard.js";
import {
  organisationConfig,
  type OrganisationConfig,
} from "../../addin/organisation/organisationConfig.js";
import { recalculateCells } from "../sheet/recalculateCells.js";
import { loadSettings, saveSettings } from "../../addin/settings.js";
import { BulkRunController } from "../bulk/bulkRunController.js";
import { freezeFormulas } from "../sheet/freezeFormulas.js";
import { readSelection } from "../sheet/readSelection.js";
import { selectedColumn } from "../sheet/selectedColumn.js";
import { recalculateWorkbook } from "../sheet/recalculateWorkbook.js";
import { recentSpells, rememberSpell } from "./recentSpells.js";
import { clearBulkJob, damagedBulkJobs, loadBulkJobs } from "../bulk/resumeState.js";
import { moveKeptResults } from "../bulk/moveKeptResults.js";
import { sharedBulkSource } from "../bulk/sharedBulkSource.js";
import { openRowRecords } from "../sheet/rowRecordStore.js";
import { testConnection } from "./testConnection.js";
import type { BulkViewDeps } from "./bulkView.js";
import type { SettingsViewDeps } from "./settingsView.js";
import type { SpendingViewDeps } from "./spendingView.js";

/**
 * The real modules behind the task pane's views: the runtime's shared client and settings, the
 * document's resume state, the workbook through Office.js.
 *
 * ## Example
 * ```ts
 * await mountTaskPane(document.getElementById("app")!, taskPaneDeps());
 * ```
 */
export function taskPaneDeps(): {
  bulk: BulkViewDeps;
  settings: SettingsViewDeps;
  spending: SpendingViewDeps;
  organisation: () => Promise<OrganisationConfig | undefined>;
} {
  return {
    bulk: {
      controller: new BulkRunController(sharedBulkSource),
      readSelection: (options) => readSelection(undefined, options),
      selectedColumn,
      freezeFormulas,
      recentSpells,
      rememberSpell,
      openRowRecords: async () => {
        await openRowRecords();
        await moveKeptResults(); // out of the settings, where a previous version kept them
      },
      loadBulkJobs,
      damagedBulkJobs,
      // The pane's bulk runs count against the daily cap too (the user's click is the consent
      // for the threshold).
      chargeRuns: async (runs) => (await spendingGuard()).chargeBulk(runs),
      clearBulkJob,
    },
    settings: {
      loadSettings,
      saveSettings,
      testConnection: (settings) => testConnection(settings),
      clearRememberedResults,
      recalculate: recalculateWorkbook,
    },
    spending: {
      state$: defer(() => from(spendingGuard())).pipe(switchMap((guard) => guard.state$)),
      decide: async (choice) => (await spendingGuard()).decide(choice),
      recalculateCells,
    },
    // Asked only when the add-in calls through its host, which may be the organisation's gateway.
    organisation: async () =>
      (await loadSettings()).serviceRoute === "addinHost" ? organisationConfig() : undefined,
  };
}
