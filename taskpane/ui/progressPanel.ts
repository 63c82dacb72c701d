import type { BulkProgress, BulkRunController } from "../bulk/bulkRunController.js";
import { paneMessage } from "../bulk/paneMessage.js";
import { formatDuration } from "../bulk/progressEstimate.js";
import { element } from "./element.js";

const PHASE_TEXT: Record<string, string> = {
  running: "Running",
  cancelling: "Cancelling",
  done: "Finished",
  cancelled: "Cancelled",
  failed: "Stopped",
};

/**
 * The progress part of the bulk view: bar, sentence, counts per state, timing, and Cancel /
 * Retry failed rows / Copy kept results. `render` shows a progress; `report` shows an error.
 *
 * ## Example
 * ```ts
 * const panel = progressPanel(controller);
 * controller.progress$.subscribe(panel.render);
 * ```
 */
export function progressPanel(controller: BulkRunController): {
  element: HTMLElement;
  /** Controls to disable while a bulk runs (Retry failed rows). */
  retry: HTMLElement;
  render(progress: BulkProgress): void;
  report(error: unknown): void;
} {
  const box = element("section", {
    id: "progress",
    class: "progress",
    hidden: true,
    "aria-label": "Bulk progress",
  });
  const bar = element("fluent-progress", {
    id: "bar",
    min: 0,
    max: 100,
    value: 0,
    "aria-label": "Runs finished",
  });
  const text = element("p", {
    id: "progress-text",
    class: "progress-text",
    role: "status",
    "aria-live": "polite",
  });
  const counts = element("ul", { id: "counts", class: "counts" });
  const timing = element("p", { id: "timing", class: "hint" });
  const cancel = element("fluent-button", { id: "cancel" }, "Cancel");
  const retry = element("fluent-button", { id: "retry", hidden: true }, "Retry failed rows");
  const copyKept = element("fluent-button", { id: "copy-kept", hidden: true }, "Copy kept results");
  const writeKept = element(
    "fluent-button",
    { id: "write-kept", hidden: true },
    "Write below the block"
  );
  box.append(
    bar,
    text,
    counts,
    timing,
    element("div", { class: "actions" }, cancel, retry, copyKept, writeKept)
  );

  const report = (error: unknown) => {
    box.hidden = false;
    text.textContent = paneMessage(error);
    text.dataset.tone = "bad";
  };
  cancel.addEventListener("click", () => void controller.cancel());
  // Results whose rows were deleted during the run: never written into the sheet by the pane,
  // copied for the user to paste where they belong.
  copyKept.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(controller.keptResults());
      copyKept.textContent = "Copied";
    } catch (error) {
      report(error);
    }
  });
  // ...or written as new records under the block, only into empty rows.
  writeKept.addEventListener("click", async () => {
    try {
      await controller.writeKeptBelow();
    } catch (error) {
      report(error);
    }
  });
  retry.addEventListener("click", async () => {
    try {
      await controller.retryFailed();
    } catch (error) {
      report(error);
    }
  });

  const render = (progress: BulkProgress) => {
    if (progress.phase === "idle") return;
    box.hidden = false;
    const percent = progress.total ? Math.round((progress.finished / progress.total) * 100) : 100;
    bar.setAttribute("value", String(percent));
    bar.setAttribute("aria-valuetext", `${progress.finished} of ${progress.total} runs finished`);
    text.textContent =
      `${PHASE_TEXT[progress.phase] ?? ""}: ${progress.finished} / ${progress.total} done` +
      (progress.message ? `. ${progress.message}` : "");
    text.dataset.tone =
      progress.phase === "failed" ? "bad" : progress.phase === "done" ? "good" : "info";
    const items: Array<[string, number]> = [
      ["success", progress.counts.success],
      ["failure", progress.counts.failure],
      ["error", progress.counts.error],
      ["running", progress.counts.inProgress],
      ["pending", progress.counts.pending],
      ["stale", progress.stale],
      ["cancelled", progress.cancelled],
      ["kept", progress.kept],
    ];
    counts.replaceChildren(
      ...items
        .filter(([label, count]) => count > 0 || label === "success")
        .map(([label, count]) =>
          element(
            "li",
            { class: `count count-${label}` },
            element("strong", {}, String(count)),
            ` ${label}`
          )
        )
    );
    timing.textContent =
      `Elapsed ${formatDuration(progress.elapsedMs)}` +
      (progress.remainingMs !== undefined
        ? ` · about ${formatDuration(progress.remainingMs)} left`
        : "");
    const active = progress.phase === "running" || progress.phase === "cancelling";
    cancel.toggleAttribute("disabled", !active);
    cancel.hidden = !active;
    retry.hidden = active || progress.retryable === 0;
    retry.textContent = `Retry failed rows (${progress.retryable})`;
    copyKept.hidden = progress.kept === 0;
    writeKept.hidden = active || progress.kept === 0;
  };
  return { element: box, retry, render, report };
}
