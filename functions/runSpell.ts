import { serviceAddresses } from "../addin/serviceRoute.js";
import { excelError } from "./excelError.js";
import { isInValuePreview } from "./isInValuePreview.js";
import { parseInputs } from "./parseInputs.js";
import { parseOutputNames } from "./parseOutputNames.js";
import { parseSpellId } from "./parseSpellId.js";
import { shapeOutputs } from "./shapeOutputs.js";
import { sharedClientIfReady, sharedClientWithSettings } from "../addin/sharedClient.js";
import type { SpellSettings } from "../addin/settings/SpellSettings.js";
import type { Observer, Subscription } from "rxjs";
import {
  answeredWithoutRun,
  noteSharingCell,
  refundStart,
  spendingGate,
} from "../addin/spendingGate.js";
import { startRefused } from "../addin/spending/startRefused.js";
import { hostCanRecalculateCells } from "../addin/spending/hostCanRecalculateCells.js";
import { SpendingGuardError } from "../addin/SpendingGuardError.js";
import { SpellError, type RunSnapshot, type SpellClient } from "spellrun";
import type { ErrorContext } from "./toExcelError.js";

/**
 * What `SPELL.RUN` shows in the formula value preview when nothing is remembered for the call:
 * the preview never starts a run (each run may cost money).
 *
 * ## Example
 * ```ts
 * expect(await runSpell("echo", '{"a":1}', null, { isInValuePreview: true })).toEqual([[RUN_PREVIEW_TEXT]]);
 * ```
 */
export const RUN_PREVIEW_TEXT = "SPELL.RUN runs when you press Enter";

/**
 * `=SPELL.RUN(spell_id, inputs, [output])`: runs a spell on the runtime's shared client and returns
 * its outputs as one row.
 *
 * Money rules: the formula value preview starts nothing (it shows a remembered result, or
 * `RUN_PREVIEW_TEXT`); identical calls share one run in flight; a success is remembered across
 * reloads; the client-wide in-flight limit queues the rest. While the run is going the promise is
 * simply pending (Excel shows `#BUSY!`). When Excel cancels the call, the subscription ends (a run
 * shared with other cells goes on for them; a queued run is never started).
 *
 * ## Example
 * ```ts
 * const row = await runSpell("summarize", [["text"], ["A long text"]], "summary", invocation);
 * ```
 *
 * @param spellIdArgument The spell ID.
 * @param inputsArgument JSON object text, SPELL.INPUTS text, or a two-row / two-column range.
 * @param outputArgument Output name(s): text (comma-separated) or a range; `null` for all.
 * @param invocation Excel's invocation (`onCanceled` is set here; `isInValuePreview` is read).
 * @return One row of output values.
 * @throws An Excel error (`#VALUE!` or `#N/A`) with a message.
 */
export function runSpell(
  spellIdArgument: unknown,
  inputsArgument: unknown,
  outputArgument: unknown,
  invocation?: CustomFunctions.CancelableInvocation
): Promise<unknown[][]> {
  return new Promise<unknown[][]>((resolve, reject) => {
    // Set before anything else, so a cancel at any moment is seen.
    const call = new CellRun(resolve, reject);
    if (invocation) invocation.onCanceled = () => call.cancel();
    const spellId = parseSpellId(spellIdArgument);
    const inputs = parseInputs(inputsArgument);
    call.names = parseOutputNames(outputArgument);
    call.spellId = spellId;
    call.context = { spellId };
    call.address = invocation?.address;
    if (isInValuePreview(invocation)) {
      resolve(previewRow(spellId, inputs, call.names));
      return;
    }
    // Thousands of calls arrive together: once the client is built, none waits for a turn.
    const ready = sharedClientIfReady();
    if (ready) call.start(ready.client, ready.settings, inputs);
    else {
      sharedClientWithSettings().then(
        ({ client, settings }) => call.start(client, settings, inputs),
        (error: unknown) => call.error(error)
      );
    }
  });
}

/**
 * One `SPELL.RUN` call waiting for its run, and the observer of its subscription: one object per
 * call rather than a handful of closures (a filled-down column makes thousands at once, all alive
 * until the runs end).
 */
class CellRun implements Observer<RunSnapshot> {
  spellId = "";
  names: string[] | undefined;
  context: ErrorContext = {};
  /** The cell (`@requiresAddress`): the task pane recalculates it after a spending decision. */
  address: string | undefined;
  private last: RunSnapshot | undefined;
  private subscription: Subscription | undefined;
  private cancelled = false;
  /** The spending gate counted this call's run (its own start, not a shared one). */
  private charged = false;
  /** The settings of the client it runs on: an error names their service (read only then). */
  private settings: SpellSettings | undefined;
  /** The client and inputs of its run, for a refusal shared with other cells (read only then). */
  private client: SpellClient | undefined;
  private inputs: Record<string, unknown> = {};

  constructor(
    private readonly resolve: (row: unknown[][]) => void,
    private readonly reject: (error: unknown) => void
  ) {}

  /**
   * Polling mode: spells may run longer than a wait-mode request should stay open, and short
   * polls do not hold one of the browser's six connections per host for the whole run.
   * Subscribed directly (no AbortController per call).
   */
  start(client: SpellClient, settings: SpellSettings, inputs: Record<string, unknown>): void {
    if (this.cancelled) return this.reject(cancelledError());
    this.last = undefined;
    this.charged = false;
    const spellId = this.spellId;
    this.settings = settings;
    this.client = client;
    this.inputs = inputs;
    try {
      this.subscription = client
        .run(spellId, inputs, {
          wait: false,
          // Asked only when the run would really be sent (not for a remembered result or a run
          // in flight), so the run key is computed only then.
          beforeStart: spendingGate(
            {
              by: "formula",
              spellId,
              key: () => client.reuseKey(spellId, inputs),
              runs: 1,
              address: this.address,
              // Where the host cannot recalculate the cell, the pane calls it again from here.
              reinvoke: () => this.start(client, settings, inputs),
              // A cell whose inputs change at each calculation (NOW(), RAND()) asks before long.
              judgeInputs: true,
            },
            () => (this.charged = true)
          ),
        })
        .subscribe(this);
    } catch (error) {
      // Nothing may leave the cell pending: a synchronous throw becomes its error too.
      this.error(error);
    }
  }

  /**
   * Excel cancels (the cell was deleted or recalculated): only this call's interest ends; a run
   * shared with other cells goes on for them, a queued run is never started.
   */
  cancel(): void {
    this.cancelled = true;
    this.subscription?.unsubscribe();
    this.reject(cancelledError());
  }

  next(snapshot: RunSnapshot): void {
    this.last = snapshot;
  }

  error(error: unknown): void {
    // A start the service surely refused (a mistyped spell's 404) started nothing: its count
    // goes back, so the guard counts the runs really sent.
    if (this.charged && !this.last && startRefused(error)) {
      this.charged = false;
      const { client, address } = this;
      const key = client?.reuseKey(this.spellId, this.inputs);
      refundStart("formula", 1, address && key ? { address, key } : undefined);
    }
    // Cells of one input share one run, whose gate was asked for the first of them: each is
    // recorded with the guard, so that the user's decision gives every one of them back.
    if (error instanceof SpendingGuardError && this.address && this.client) {
      const { client, settings, inputs } = this;
      noteSharingCell(
        error,
        client.reuseKey(this.spellId, inputs),
        this.address,
        settings ? () => this.start(client, settings, inputs) : undefined
      );
    }
    // Waiting for the user's answer on a host that cannot recalculate one cell: the call stays
    // pending in the guard's queue (Excel shows #BUSY!), and the pane's answer calls it again.
    if (
      error instanceof SpendingGuardError &&
      error.reason !== "blocked" &&
      !hostCanRecalculateCells()
    ) {
      return;
    }
    // The translation of errors is loaded with the first error: functions.js carries the
    // happy path.
    const context = this.errorContext();
    import("./toExcelError.js").then(
      ({ toExcelError }) => this.reject(toExcelError(error, context)),
      () => this.reject(excelError("#N/A", "The run failed. Reload the add-in to see why."))
    );
  }

  /** What an error message names: the spell, and the service once the client was built. */
  private errorContext(): ErrorContext {
    const settings = this.settings;
    return settings
      ? { ...this.context, baseUrl: serviceAddresses(settings).baseUrl, apiKey: settings.apiKey }
      : this.context;
  }

  complete(): void {
    try {
      if (!this.last) throw new SpellError("The run ended without a result");
      this.resolve(shapeOutputs(this.last.outputs, this.names));
      // Answered without a run of its own (a remembered result, a run another cell started): a
      // cell that waited for the spending guard's answer (typed back to a known input) waits no more.
      if (!this.charged && this.address) answeredWithoutRun(this.address);
    } catch (error) {
      this.error(error);
    }
  }
}

/** The preview: a remembered result costs nothing to show; anything else waits for Enter. */
async function previewRow(
  spellId: string,
  inputs: Record<string, unknown>,
  names: string[] | undefined
): Promise<unknown[][]> {
  let remembered: Record<string, unknown> | undefined;
  try {
    const { client } = await sharedClientWithSettings();
    const { rememberedResults } = await import("../addin/rememberedResults.js");
    remembered = await rememberedResults().get(client.reuseKey(spellId, inputs));
  } catch {
    remembered = undefined;
  }
  return remembered ? shapeOutputs(remembered, names) : [[RUN_PREVIEW_TEXT]];
}

function cancelledError(): CustomFunctions.Error {
  return excelError("#N/A", "Cancelled by Excel.");
}
