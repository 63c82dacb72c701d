import { defer, from, switchMap } from "rxjs";
import {
  clearRememberedResults,
  rememberedResultsLimitNote,
} from "../../addin/rememberedResults.js";
import { spendingGuard } from "../../addin/spendingGuard.js";
import { refundStart, spendingGate } from "../../addin/spendingGate.js";
import { rerunWaitingCells } from "../sheet/rerunWaitingCells.js";
import type { OrganisationConfig } from "../../addin/organisation/organisationConfig.js";
import { organisationRoute } from "../../addin/organisation/organisationRoute.js";
import { loadSettings } from "../../addin/settings/loadSettings.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { BulkRunController } from "../bulk/bulkRunController.js";
import { freezeFormulas } from "../sheet/freezeFormulas.js";
import { readSelection } from "../sheet/readSelection.js";
import { selectedColumn } from "../sheet/selectedColumn.js";
import { recalculateWorkbook } from "../sheet/recalculateWorkbook.js";
import { recentSpells, rememberSpell } from "./recentSpells.js";
import { clearBulkJob, damagedBulkJobs, loadBulkJobs } from "../storedJob/jobStore.js";
import { moveKeptResults } from "../storedJob/moveKeptResults.js";
import { sharedBulkSource } from "../bulk/sharedBulkSource.js";
import { openRowRecords } from "../storedJob/rowRecordStore.js";
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
      // Every start of the pane (Run, Resume, Retry failed rows) through the add-in's one
      // spending gate: the runs really sent count against the daily cap.
      controller: new BulkRunController(
        sharedBulkSource,
        Date.now,
        (runs) => spendingGate({ by: "pane", runs }),
        // A start the service surely refused (an unknown spell's 404) gives its count back.
        (runs) => refundStart("pane", runs)
      ),
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
      clearBulkJob,
    },
    settings: {
      loadSettings,
      saveSettings,
      testConnection: (settings) => testConnection(settings),
      clearRememberedResults,
      rememberedNote: rememberedResultsLimitNote,
      recalculate: recalculateWorkbook,
    },
    spending: {
      state$: defer(() => from(spendingGuard())).pipe(switchMap((guard) => guard.state$)),
      decide: async (choice) => (await spendingGuard()).decide(choice),
      rerunCells: async (addresses) => rerunWaitingCells(addresses, await spendingGuard()),
      rejudged$: defer(() => from(spendingGuard())).pipe(switchMap((guard) => guard.rejudged$)),
    },
    // The host's /org/config, asked whatever route is stored: an organisation's gateway is found
    // on first load, and its panel sets the route to the add-in's host (organisationRoute).
    organisation: async () => (await organisationRoute(await loadSettings())).organisation,
  };
}
