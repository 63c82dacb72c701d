import { clearRememberedResults } from "../../addin/rememberedResults.js";
import { loadSettings, saveSettings } from "../../addin/settings.js";
import { BulkRunController } from "../bulk/bulkRunController.js";
import { freezeFormulas } from "../sheet/freezeFormulas.js";
import { readSelection } from "../sheet/readSelection.js";
import { selectedColumn } from "../sheet/selectedColumn.js";
import { recalculateWorkbook } from "../sheet/recalculateWorkbook.js";
import { recentSpells, rememberSpell } from "./recentSpells.js";
import { clearBulkJob, loadBulkJobs } from "../bulk/resumeState.js";
import { sharedBulkSource } from "../bulk/sharedBulkSource.js";
import { openRowRecords } from "../sheet/rowRecordStore.js";
import { testConnection } from "./testConnection.js";
import type { BulkViewDeps } from "./bulkView.js";
import type { SettingsViewDeps } from "./settingsView.js";

/**
 * The real modules behind the task pane's views: the runtime's shared client and settings, the
 * document's resume state, the workbook through Office.js.
 *
 * ## Example
 * ```ts
 * await mountTaskPane(document.getElementById("app")!, taskPaneDeps());
 * ```
 */
export function taskPaneDeps(): { bulk: BulkViewDeps; settings: SettingsViewDeps } {
  return {
    bulk: {
      controller: new BulkRunController(sharedBulkSource),
      readSelection: (options) => readSelection(undefined, options),
      selectedColumn,
      freezeFormulas,
      recentSpells,
      rememberSpell,
      openRowRecords,
      loadBulkJobs,
      clearBulkJob,
    },
    settings: {
      loadSettings,
      saveSettings,
      testConnection: (settings) => testConnection(settings),
      clearRememberedResults,
      recalculate: recalculateWorkbook,
    },
  };
}
