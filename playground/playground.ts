/**
 * The playground page (`npm run playground`): the real add-in over a live sheet, without Excel.
 *
 * Order matters, as in Excel's shared runtime: `Excel`, `Office` and `CustomFunctions` are in
 * place before the add-in's own bundles run; then the built functions.js registers SPELL.* with
 * `CustomFunctions.associate`; then the built taskpane.js mounts the task pane into #app when
 * `Office.onReady` answers. The settings start at the emulator behind the dev server, with the
 * emulator's local development key (never a real key: none is built into any page).
 */
import jspreadsheetCss from "jspreadsheet-ce/dist/jspreadsheet.css";
import jsuitesCss from "jsuites/dist/jsuites.css";
import { loadSettings } from "../addin/settings/loadSettings.js";
import { saveSettings } from "../addin/settings/saveSettings.js";
import { merge, tap } from "rxjs";
import { bootPlayground, type Playground } from "./bootPlayground.js";
import { parseAddress } from "./excel/a1.js";
import { cellInput } from "./excel/cellInput.js";
import { spillAnchorOf } from "./excel/spillAnchor.js";
import { DEMO_COLUMN_WIDTHS, demoSheets } from "./demoSheet.js";
import { installInPageEmulator, type InPageEmulator } from "./emulator/inPageEmulator.js";
import { loadSavedPace, savePace } from "./emulator/savedPace.js";
import { SPELL_PACES, type SpellPace } from "./emulator/spellPace.js";
import { extendDragsDownward } from "./fillDragScroll.js";
import { offerFormulaBar } from "./formulaBar.js";
import { offerGoToDialog } from "./goToDialog.js";
import { cellField } from "./grid/cellEditor.js";
import { listenToEditorLines } from "./grid/editorLines.js";
import { listenToEntryKeys } from "./grid/entryKeys.js";
import { fillDownOnDoubleClick } from "./grid/fillHandleDoubleClick.js";
import { listenToSheetKeys } from "./grid/sheetKeys.js";
import { focusGrid, listenToTypedText } from "./grid/typedText.js";
import { keepBarsInPlace } from "./keepBarsInPlace.js";
import { warnBeforeLeaving } from "./leaveWarning.js";
import { offerNameBox } from "./nameBox.js";
import { showPageError, showPageErrors } from "./pageErrors.js";
import { scrollRowsOnWheel } from "./wheelRows.js";
import {
  forgetSavedDocument,
  keepDocumentSaved,
  keepViewSaved,
  loadSavedDocument,
  loadSavedView,
} from "./savedDocument.js";
import type { CustomFunctionMetadata } from "./functions/customFunctionsRuntime.js";
import playgroundCss from "./playground.css";

// Defined by playground/webpack.config.cjs: the emulator's development key, "" when the dev
// server points at a real service (the user then enters their key in Settings).
declare const SPELLRUN_PLAYGROUND_EMULATOR_KEY: string;
// Defined by playground/webpack.config.cjs: true in the static build (`npm run build:playground`),
// whose emulator runs in this page.
declare const SPELLRUN_PLAYGROUND_IN_PAGE_EMULATOR: boolean;

function loadScript(source: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = source;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${source}`));
    document.body.append(script);
  });
}

/**
 * Excel's formula bar: the active cell's address (the Name Box) and what was typed there (its
 * formula), or what is being typed while the cell is edited; a click in it edits the cell there.
 */
function showFormulaBar({ grid, workbook, engine }: Playground): void {
  const address = document.getElementById("formula-address");
  const content = document.getElementById("formula-content") as HTMLTextAreaElement | null;
  const message = document.getElementById("formula-message");
  if (!address || !content) return;
  const bar = offerFormulaBar(
    {
      field: content,
      enter: document.getElementById("formula-enter") as HTMLButtonElement | null,
      cancel: document.getElementById("formula-cancel") as HTMLButtonElement | null,
      expand: document.getElementById("formula-expand") as HTMLButtonElement | null,
      // A cell a formula spilled into holds no input of its own: an edit there starts empty.
      ownInput: (sheet, row, column) =>
        spillAnchorOf(workbook, sheet, row, column) ? "" : undefined,
    },
    grid,
    focusGrid,
    () => show()
  );
  let active = { sheet: grid.activeSheet(), address: "A1" };
  function show(): void {
    if (!address || !content) return;
    const cell = workbook.cell(active.sheet, active.address);
    // What a person is typing in the Name Box stays until they press Enter or leave it.
    if (document.activeElement !== address) address.textContent = active.address;
    // What is typed in the bar stays until the edit ends.
    // A cell a formula spilled into shows that formula, greyed (it is edited at its anchor).
    const { block } = parseAddress(active.address);
    const spill = spillAnchorOf(workbook, active.sheet, block.top, block.left);
    const ghost = !bar.editing() && !cellField() && spill !== undefined;
    content.classList.toggle("formula-spilled", ghost);
    content.title = ghost ? `Spilled by the formula in ${spill?.address ?? ""}: edit it there` : "";
    if (!bar.editing()) content.value = cellField()?.value ?? spill?.formula ?? cellInput(cell);
    // Why the cell shows an error (Excel shows it beside the cell's error sign); while the Name
    // Box has the keyboard, the message is the box's ("Reference isn't valid: …").
    if (message && document.activeElement !== address) {
      message.textContent = engine.messageAt(active.sheet, active.address) ?? "";
      message.title = message.textContent;
    }
  }
  merge(grid.selections.pipe(tap((selected) => (active = selected))), grid.refreshes).subscribe(
    show
  );
  show();
  offerNameBox(address, grid, message, show, focusGrid);
  const goToDialog = offerGoToDialog(document.body, grid, focusGrid);
  listenToEditorLines();
  listenToEntryKeys(grid); // before the sheet's keys: Ctrl+Enter writes and stays
  listenToSheetKeys(grid, workbook, () => goToDialog.open());
  listenToTypedText();
  // While a cell is edited, the bar shows what is being typed (as Excel's does).
  const mirror = (event: Event) => {
    const editor = event.target;
    const editing =
      (editor instanceof HTMLInputElement || editor instanceof HTMLTextAreaElement) &&
      editor.closest("td.editor") !== null;
    if (editing) content.value = editor.value;
  };
  for (const type of ["input", "keyup"]) document.addEventListener(type, mirror, true);
}

/** The pace chooser (static build only: it sets the in-page emulator's durations). */
function offerPaces(emulator: InPageEmulator): void {
  const choice = document.getElementById("pace-choice");
  const select = document.getElementById("playground-pace") as HTMLSelectElement | null;
  if (!choice || !select) return;
  for (const { pace, label } of SPELL_PACES) select.append(new Option(label, pace));
  // The pace chosen before a reload goes on (as the emulator's runs do).
  const saved = loadSavedPace();
  if (saved) {
    select.value = saved;
    emulator.setPace(saved);
  }
  select.addEventListener("change", () => {
    emulator.setPace(select.value as SpellPace);
    savePace(select.value as SpellPace);
  });
  choice.hidden = false;
}

/**
 * Keeps the document saved in the page (shown beside the title, as Excel's "Saved"), and offers
 * "Reset to demo": the saved document is forgotten and the page opens the demo again.
 * `reopened`: the page opened the saved document (a reload), which is saved as it stands.
 */
function keepSaved(
  playground: Playground,
  errors: HTMLElement | null,
  emulator: InPageEmulator | undefined,
  reopened: boolean
): void {
  const status = document.getElementById("playground-saved");
  const reset = document.getElementById("playground-reset") as HTMLButtonElement | null;
  if (status && reopened) status.textContent = "Saved in this browser";
  const stopSaving = keepDocumentSaved(playground.workbook, {
    onSaving: (saving) => {
      if (status) status.textContent = saving ? "Saving…" : "Saved in this browser";
    },
    onError: (error) => {
      if (status) status.textContent = "Not saved";
      if (errors)
        showPageError(errors, `The workbook could not be saved in this browser: ${String(error)}`);
    },
  });
  const { views } = playground.grid;
  const stopSavingView = keepViewSaved(() => views.current(), views.changes, {
    onError: (error) => errors && showPageError(errors, error),
  });
  if (!reset) return;
  reset.hidden = false;
  reset.addEventListener("click", () => {
    const question =
      "Reset the workbook to the demo? Its cells, sheets and the add-in's stored job are lost.";
    if (!window.confirm(question)) return;
    emulator?.forgetRuns();
    stopSavingView({ discard: true });
    // A change waiting to be saved (a cell that just recalculated) must not be saved after the
    // document is forgotten, nor when the page is left: the demo would not come back.
    void stopSaving({ discard: true })
      .then(forgetSavedDocument)
      .catch((error: unknown) => errors && showPageError(errors, error))
      .finally(() => location.reload());
  });
}

/**
 * Runs the page waits for: calls of the formulas not answered yet (#BUSY!, on any sheet or row),
 * SPELL.BULK rows shown "Still running", and a bulk run of the task pane while it goes (its Cancel
 * button shown). Not a run nobody waits for any more: a cell emptied or changed while its run
 * went on (the service, and the emulator, still count it in flight, in the batch it was sent
 * with), nor a cell waiting for the spending guard's OK (nothing started).
 */
function runsAwaited({ runtime }: Playground, emulator: InPageEmulator | undefined): number {
  const stillRunning = document.querySelectorAll(
    '.playground-busy:not([title^="Waiting for your OK"])'
  ).length;
  const paneRunning = document.querySelector("#progress:not([hidden]) #cancel:not([hidden])");
  const paneRuns = paneRunning ? Math.max(1, emulator?.store.inFlight() ?? 0) : 0;
  return Math.max(runtime.callsUnanswered(), stillRunning, paneRuns);
}

async function main(): Promise<void> {
  const errors = document.getElementById("playground-errors");
  if (errors) showPageErrors(errors);
  for (const css of [jsuitesCss, jspreadsheetCss, playgroundCss]) {
    const style = document.createElement("style");
    style.textContent = css;
    document.head.append(style);
  }
  const gridElement = document.getElementById("grid");
  if (!gridElement) throw new Error("no #grid");
  // Before the add-in's bundles load: they keep the fetch they find.
  const emulator = SPELLRUN_PLAYGROUND_IN_PAGE_EMULATOR
    ? installInPageEmulator({ apiKey: SPELLRUN_PLAYGROUND_EMULATOR_KEY })
    : undefined;
  if (SPELLRUN_PLAYGROUND_EMULATOR_KEY && !(await loadSettings()).apiKey) {
    await saveSettings({ apiKey: SPELLRUN_PLAYGROUND_EMULATOR_KEY });
  }
  const metadata = (await (await fetch("functions.json")).json()) as {
    functions: CustomFunctionMetadata[];
    allowErrorForDataTypeAny?: boolean;
  };
  // The document as it was left (a reload), else the demo.
  const saved = await loadSavedDocument().catch((error: unknown) => {
    if (errors) showPageError(errors, `The saved workbook could not be opened: ${String(error)}`);
    return undefined;
  });
  // Its view: the sheet, selection and scroll it was left with (a view that cannot be read is
  // left out: the document opens on its first sheet's A1).
  const savedView = saved ? await loadSavedView().catch(() => undefined) : undefined;
  const playground = await bootPlayground({
    gridElement,
    sheets: demoSheets(),
    columnWidths: DEMO_COLUMN_WIDTHS,
    snapshot: saved,
    metadata: metadata.functions,
    allowErrorForDataTypeAny: metadata.allowErrorForDataTypeAny,
    loadFunctions: () => loadScript("functions.js"),
  });
  (window as unknown as { __playground?: unknown }).__playground = playground;
  (window as unknown as { __emulator?: unknown }).__emulator = emulator;
  if (emulator) offerPaces(emulator);
  keepSaved(playground, errors, emulator, saved !== undefined);
  warnBeforeLeaving(() => runsAwaited(playground, emulator));
  showFormulaBar(playground);
  const scroller = gridElement.closest<HTMLElement>(".playground-sheet") ?? gridElement;
  extendDragsDownward(gridElement, scroller, playground.grid);
  scrollRowsOnWheel(scroller, playground.grid);
  fillDownOnDoubleClick(gridElement, playground.grid, playground.workbook);
  keepBarsInPlace(scroller);
  // Excel reopens a workbook on the sheet and selection it was saved with, each sheet scrolled
  // as it was.
  if (saved) playground.grid.views.restore(savedView);
  await loadScript("taskpane.js");
  document.body.dataset.ready = "true";
}

main().catch((error: unknown) => {
  const errors = document.getElementById("playground-errors");
  if (errors) showPageError(errors, `The playground could not start: ${String(error)}`);
});
