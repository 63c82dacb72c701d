import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import {
  BULK_JOB_IDS_SETTING,
  BULK_JOB_SETTING,
  BULK_PROGRESS_SETTING,
} from "../../taskpane/storedJob/jobSettings.js";
import { damagedBulkJobs, loadBulkJobs } from "../../taskpane/storedJob/jobStore.js";
import { mountBulkView } from "../../taskpane/ui/bulkView.js";
import { registerFluent } from "../../taskpane/ui/registerFluent.js";
import { resetEmulator } from "../helpers/emulatorClient.js";
import { emulatorClient, waitFor, workbookWith, bulkViewDeps } from "./taskpaneTestKit.js";

type ValueElement = HTMLElement & { value: string };

/** A stored job as a crafted workbook carries it: its row ranges claim 10^10 rows. */
const BOMB = {
  version: 1,
  spellId: "echo",
  sheet: "Sheet1",
  headerRow: 0,
  rows: "0-9999999999",
  inputColumns: [0],
  inputNames: ["text"],
  fingerprints: [],
  statusColumn: 1,
  startedAt: 0,
};

describe("stored jobs from a crafted workbook (settings bomb)", () => {
  let uninstall: () => void = () => undefined;
  let root: HTMLElement;

  beforeEach(async () => {
    await resetEmulator();
    registerFluent();
    root = document.createElement("div");
    document.body.append(root);
    uninstall = workbookWith([["text"], ["one"], ["two"]]).install();
    const settings = Office.context.document.settings;
    settings.set(BULK_JOB_IDS_SETTING, ["bomb", "handled"]);
    settings.set(`${BULK_JOB_SETTING}.bomb`, BOMB);
    // A job whose own rows are fine but whose progress claims 10^10 finished runs.
    settings.set(`${BULK_JOB_SETTING}.handled`, { ...BOMB, rows: "1-2", fingerprints: ["a", "b"] });
    settings.set(`${BULK_PROGRESS_SETTING}.handled`, { outputNames: [], handled: "0-9999999999" });
    // An earlier version's single job, under the bare name: an index far outside a sheet.
    settings.set(BULK_JOB_SETTING, { ...BOMB, rows: "1,99999999999999" });
  });
  afterEach(() => {
    root.remove();
    uninstall();
  });

  it("should leave the pane usable within 1 s, report each bad job and let it be forgotten", async () => {
    const started = performance.now();
    await mountBulkView(
      root,
      bulkViewDeps(new BulkRunController(emulatorClient()), { damagedBulkJobs })
    );
    await waitFor(
      () => !(root.querySelector("#resume") as HTMLElement).hidden,
      1_000,
      "the report"
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    const reported = root.querySelector("#resume")?.textContent ?? "";
    expect(reported).toContain("cannot be used: it claims 10000000000 rows");
    expect(reported).toContain("its finished rows are not runs of the job");
    expect(reported).toContain("its rows are not row numbers of a worksheet");
    expect(loadBulkJobs()).toEqual([]);

    // Usable: the pane plans a run over the selection.
    (root.querySelector("#spell-id") as ValueElement).value = "echo";
    (root.querySelector("#use-selection") as HTMLElement).click();
    const text = () => root.querySelector("#plan-summary")?.textContent ?? "";
    await waitFor(() => /will start/.test(text()), 5_000, "the plan");

    for (const index of [1, 2, 3]) {
      (root.querySelector(`#forget-damaged-${index}`) as HTMLElement).click();
    }
    await waitFor(
      () => (root.querySelector("#resume") as HTMLElement).hidden,
      5_000,
      "the bad jobs forgotten"
    );
    expect(damagedBulkJobs()).toEqual([]);
    expect(Office.context.document.settings.get(`${BULK_JOB_SETTING}.bomb`)).toBeNull();
    expect(Office.context.document.settings.get(BULK_JOB_SETTING)).toBeNull();
  });
});
