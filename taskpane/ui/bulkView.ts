import { columnName, parseAddress } from "../sheet/a1Address.js";
import type { BulkProgress } from "../bulk/bulkRunController.js";
import { defaultMapping, planBulk } from "../bulk/planBulk.js";
import type { BulkPlan, ColumnMapping } from "../bulk/planBulk.js";
import type { SelectionData, SheetBlock } from "../sheet/readSelection.js";
import { element } from "./element.js";
import { freezeSection } from "./freezeSection.js";
import { jobNotices } from "./jobNotices.js";
import { progressPanel } from "./progressPanel.js";
import { planSummaryText } from "../bulk/planSummaryText.js";
import { unfinishedJobMessage, unfinishedJobOver } from "../bulk/unfinishedJobOver.js";
import { spellCombobox } from "./spellCombobox.js";

export type { BulkViewDeps } from "./BulkViewDeps.js";
import type { BulkViewDeps } from "./BulkViewDeps.js";

type ValueElement = HTMLElement & { value: string; checked?: boolean };

/**
 * The bulk run view: spell id, "Use selection" with its column mapping and where results go,
 * how many runs will start and Run; its other parts are `progressPanel` (live progress, Cancel,
 * Retry failed rows, Copy kept results), `jobNotices` (resume or forget stored jobs) and
 * `freezeSection`. A thin view: the work is in `planBulk`, `BulkRunController`, `readSelection`
 * and `freezeFormulas`.
 *
 * ## Example
 * ```ts
 * await mountBulkView(document.getElementById("bulk")!, deps);
 * ```
 */
export async function mountBulkView(root: HTMLElement, deps: BulkViewDeps): Promise<void> {
  let selection: SelectionData | undefined;
  let mapping: ColumnMapping[] = [];
  let plan: BulkPlan | undefined;

  const panel = progressPanel(deps.controller);
  const report = panel.report;
  const notices = jobNotices({
    loadBulkJobs: deps.loadBulkJobs,
    clearBulkJob: deps.clearBulkJob,
    damagedBulkJobs: deps.damagedBulkJobs,
    resume: (job) => deps.controller.resume(job),
    report,
  });
  const offerJobs = notices.offer;
  const spellLabel = element("label", { id: "spell-id-label", for: "spell-id" }, "Spell ID");
  const spell = spellCombobox();
  const spellId = spell.input;
  const useSelection = element("fluent-button", { id: "use-selection" }, "Use selection");
  // A live region: what Use selection found (or why it could not) is announced.
  const selectionSummary = element(
    "p",
    { id: "selection-summary", class: "hint", role: "status", "aria-live": "polite" },
    "Select a range whose first row names the inputs, then press Use selection."
  );
  const mappingList = element("fieldset", { id: "mapping", class: "mapping", hidden: true });
  const onlyEmpty = element(
    "fluent-checkbox",
    // Named by aria-label too: the slotted text does not name the checkbox for every checker.
    { id: "only-empty", checked: true, "aria-label": "Only rows that have no outputs yet" },
    "Only rows that have no outputs yet"
  ) as ValueElement;
  // Shown when cells of the user's are where status and outputs would go: never written over.
  const placementLabel = element(
    "label",
    { id: "placement-label", for: "placement" },
    "Cells of yours are where the results would go. Instead:"
  );
  const placement = element(
    "fluent-select",
    { id: "placement", "aria-labelledby": "placement-label" },
    element(
      "fluent-option",
      { value: "insert", selected: true },
      "Insert new columns for the results"
    ),
    element("fluent-option", { value: "pick" }, "Put the results in another column"),
    element("fluent-option", { value: "stop" }, "Stop")
  ) as ValueElement;
  const pickColumn = element("fluent-text-field", {
    id: "pick-column",
    "aria-label": "Column for the results (letters, e.g. H)",
    placeholder: "e.g. H",
  }) as ValueElement;
  const usePicked = element("fluent-button", { id: "use-column" }, "Use this column");
  const useSelectedColumn = element(
    "fluent-button",
    { id: "use-selected-column" },
    "Use the selected cell's column"
  );
  const pickRow = element(
    "div",
    { class: "actions", hidden: true },
    pickColumn,
    usePicked,
    useSelectedColumn
  );
  const placementBox = element(
    "div",
    { id: "placement-box", class: "field", hidden: true },
    placementLabel,
    placement,
    pickRow
  );
  // Shown when the row above the selection looks like the names (selected without its header).
  const headerAboveText = element("p", { id: "header-above-text" });
  const includeAbove = element(
    "fluent-button",
    { id: "include-row-above" },
    "Include the row above"
  );
  const keepFirstRow = element(
    "fluent-button",
    { id: "first-row-is-names" },
    "The first row holds the names"
  );
  const headerAboveBox = element(
    "div",
    {
      id: "header-above",
      class: "field",
      role: "group",
      "aria-labelledby": "header-above-text",
      hidden: true,
    },
    headerAboveText,
    element("div", { class: "actions" }, includeAbove, keepFirstRow)
  );
  let firstRowIsNames = false;
  const runHidden = element(
    "fluent-checkbox",
    { id: "run-hidden", "aria-label": "Also run hidden and filtered-out rows" },
    "Also run hidden and filtered-out rows"
  ) as ValueElement;
  const planSummary = element("p", { id: "plan-summary", class: "plan", "aria-live": "polite" });
  const run = element("fluent-button", { id: "run", appearance: "accent", disabled: true }, "Run");

  root.replaceChildren(
    notices.element,
    element(
      "div",
      { class: "stack" },
      element("div", { class: "field" }, spellLabel, spell.element),
      element("div", { class: "actions" }, useSelection),
      selectionSummary,
      headerAboveBox,
      mappingList,
      onlyEmpty,
      runHidden,
      placementBox,
      planSummary,
      element("div", { class: "actions" }, run)
    ),
    panel.element,
    element("fluent-divider", {}),
    freezeSection(deps.freezeFormulas)
  );

  const setRecent = spell.setRecent;
  const busy = (running: boolean) => {
    for (const control of [useSelection, run, spellId, onlyEmpty, runHidden, panel.retry]) {
      control.toggleAttribute("disabled", running);
    }
  };

  const replan = () => {
    if (!selection) return;
    const choice = placement.value || "insert";
    plan = planBulk(selection, mapping, {
      onlyRowsWithoutOutputs: onlyEmpty.checked === true,
      insertColumns: choice === "insert",
      runHiddenRows: runHidden.checked === true,
      firstRowIsNames,
    });
    headerAboveBox.hidden = plan.headerAbove === undefined;
    if (plan.headerAbove) {
      headerAboveText.textContent =
        `Row ${plan.headerAbove.row + 1} just above the selection looks like the input names ` +
        `(${plan.headerAbove.names.join(", ")}), and row ${selection.block.top + 1} like data.`;
      includeAbove.textContent = `Include row ${plan.headerAbove.row + 1}`;
      keepFirstRow.textContent = `Row ${selection.block.top + 1} holds the names`;
    }
    // Warned here, before the click: Run would refuse over an unfinished bulk's rows.
    const current = selection;
    const planned = plan;
    const unfinished = unfinishedJobOver(deps.loadBulkJobs(), current, planned);
    if (unfinished) plan.problems.push(unfinishedJobMessage(unfinished));
    // The choice is offered while cells of the user's are in the way (or another column is picked).
    placementBox.hidden = plan.conflict === undefined && choice !== "pick";
    pickRow.hidden = choice !== "pick";
    const summary = planSummaryText(plan, choice === "stop");
    planSummary.textContent = summary.text;
    planSummary.dataset.tone = summary.tone;
    const ready = plan.problems.length === 0 && spellId.value.trim() !== "";
    if (plan.problems.length === 0 && !ready) {
      planSummary.textContent += " Enter the spell ID above to run.";
      planSummary.dataset.tone = "warn";
    }
    run.toggleAttribute("disabled", !ready || deps.controller.running);
    run.textContent = ready
      ? `Run ${plan.rows.length} row${plan.rows.length === 1 ? "" : "s"}`
      : "Run";
  };

  const renderMapping = () => {
    mappingList.hidden = mapping.length === 0;
    mappingList.replaceChildren(
      element("legend", {}, "Inputs (rename, or untick to leave a column out)"),
      ...mapping.map((entry) => {
        const letter = selection ? columnName(selection.block.left + entry.column) : "";
        const use = element("fluent-checkbox", {
          checked: entry.inputName !== null,
          "aria-label": `Use column ${letter}`,
        }) as ValueElement;
        const name = element("fluent-text-field", {
          value: entry.inputName ?? entry.header.trim(),
          "aria-label": `Input name for column ${letter}`,
        }) as ValueElement;
        use.addEventListener("change", () => {
          entry.inputName = use.checked ? name.value : null;
          name.toggleAttribute("disabled", !use.checked);
          replan();
        });
        name.addEventListener("input", () => {
          if (use.checked) entry.inputName = name.value;
          replan();
        });
        name.toggleAttribute("disabled", entry.inputName === null);
        return element(
          "div",
          { class: "mapping-row" },
          element("span", { class: "column-letter" }, letter),
          use,
          name
        );
      })
    );
  };

  const render = (progress: BulkProgress) => {
    if (progress.phase === "idle") return;
    panel.render(progress);
    const active = progress.phase === "running" || progress.phase === "cancelling";
    busy(active);
    if (!active) forgetSelection();
    // Resume is offered whenever a bulk is left unfinished (failed, pane reloaded), not only
    // when the pane opens.
    if (progress.phase === "failed") offerJobs();
    // A notice about a job that has since ended (Retry failed rows finished it) goes.
    else if (!active) notices.prune();
  };

  // After a bulk, the rows read before it are out of date (they have outputs now): a second
  // press of Run must not pay for them again, so planning starts over from Use selection.
  const forgetSelection = () => {
    selection = undefined;
    plan = undefined;
    mapping = [];
    mappingList.hidden = true;
    placementBox.hidden = true;
    headerAboveBox.hidden = true;
    selectionSummary.textContent =
      "Select the next range and press Use selection to plan another run.";
    planSummary.textContent = "";
    run.setAttribute("disabled", "");
    run.textContent = "Run";
  };
  deps.controller.progress$.subscribe(render);

  const readAndPlan = async (options?: {
    statusColumn?: number;
    range?: SheetBlock;
  }): Promise<SelectionData> => {
    const read = await deps.readSelection(options);
    selection = read;
    mapping = defaultMapping(read.headers);
    return read;
  };
  placement.addEventListener("change", replan);
  /**
   * Plans again with status and outputs in `column`, over the block read by Use selection (not
   * the selection now: the user may have clicked elsewhere to find the column).
   */
  const useColumn = async (column: () => Promise<number>) => {
    try {
      const current = selection;
      if (!current) throw new Error("Press Use selection first.");
      await readAndPlan({
        statusColumn: await column(),
        range: { sheetId: current.sheetId, block: current.block },
      });
      // Offer the choices again if the picked column holds data too.
      placement.value = "pick";
      renderMapping();
      replan();
    } catch (error) {
      planSummary.textContent = `Could not use that column: ${error instanceof Error ? error.message : String(error)}`;
      planSummary.dataset.tone = "bad";
      run.setAttribute("disabled", "");
    }
  };
  usePicked.addEventListener("click", () =>
    useColumn(async () => {
      const letters = pickColumn.value.trim().toUpperCase();
      if (!/^[A-Z]{1,3}$/.test(letters)) throw new Error(`"${letters}" is not a column (e.g. H).`);
      return parseAddress(`${letters}1`).block.left;
    })
  );
  useSelectedColumn.addEventListener("click", () =>
    useColumn(async () => {
      const picked = await deps.selectedColumn();
      if (picked.sheetId !== selection?.sheetId) {
        throw new Error(`select a cell on ${selection?.sheet ?? "the sheet of the rows"}.`);
      }
      pickColumn.value = columnName(picked.column);
      return picked.column;
    })
  );

  useSelection.addEventListener("click", async () => {
    useSelection.setAttribute("disabled", "");
    try {
      placement.value = "insert";
      firstRowIsNames = false;
      const read = await readAndPlan();
      const rows = read.rows.length;
      selectionSummary.textContent =
        `${read.sheet}!${columnName(read.block.left)}${read.block.top + 1}:` +
        `${columnName(read.block.left + read.block.columnCount - 1)}${read.block.top + read.block.rowCount}` +
        ` · ${rows} row${rows === 1 ? "" : "s"} under the header` +
        (read.cutFrom !== undefined
          ? ` (the whole ${/^\d/.test(read.cutFrom) ? "rows" : "columns"} ${read.cutFrom}, cut to the cells in use)`
          : "");
      renderMapping();
      replan();
    } catch (error) {
      selectionSummary.textContent = `Could not read the selection: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      useSelection.removeAttribute("disabled");
    }
  });
  includeAbove.addEventListener("click", async () => {
    const current = selection;
    const above = plan?.headerAbove;
    if (!current || !above) return;
    try {
      const block = { ...current.block, top: above.row, rowCount: current.block.rowCount + 1 };
      const read = await readAndPlan({ range: { sheetId: current.sheetId, block } });
      selectionSummary.textContent =
        `${read.sheet}!${columnName(block.left)}${block.top + 1}:` +
        `${columnName(block.left + block.columnCount - 1)}${block.top + block.rowCount}` +
        ` · ${read.rows.length} row${read.rows.length === 1 ? "" : "s"} under the header (row ${block.top + 1})`;
      renderMapping();
      replan();
    } catch (error) {
      selectionSummary.textContent = `Could not read the selection: ${error instanceof Error ? error.message : String(error)}`;
    }
  });
  keepFirstRow.addEventListener("click", () => {
    firstRowIsNames = true;
    replan();
  });
  onlyEmpty.addEventListener("change", replan);
  runHidden.addEventListener("change", replan);
  spellId.addEventListener("input", replan);
  spellId.addEventListener("change", replan);

  run.addEventListener("click", async () => {
    const id = spellId.value.trim();
    if (!selection || !plan || plan.problems.length > 0 || !id) return;
    busy(true);
    try {
      setRecent(await deps.rememberSpell(id));
      // The controller refuses a start over an unfinished job's rows (offered again above).
      await deps.controller.start(selection, plan, id);
    } catch (error) {
      report(error);
      offerJobs();
      busy(false);
    }
  });

  setRecent(await deps.recentSpells());
  try {
    await deps.openRowRecords?.();
  } catch (error) {
    report(error); // the jobs whose record cannot be read are not offered
  }
  offerJobs();
}
