import { keptResultsText } from "../bulk/keptResultsText.js";
import { loadKeptResults } from "../storedJob/keptResults.js";
import type { BulkJob } from "../storedJob/BulkJob.js";
import { deleteBlockName } from "../sheet/trackedBlock.js";
import { writeKeptBelow } from "../bulk/writeKeptBelow.js";
import { element } from "./element.js";

/**
 * The resume notices of the bulk view: one per stored job, with Resume (when it can be resumed)
 * and Forget; the section is hidden when there is none. `prune` drops the notices of jobs no
 * longer stored (a retry that finished the job).
 *
 * ## Example
 * ```ts
 * const notices = jobNotices({ loadBulkJobs, clearBulkJob, resume: (job) => controller.resume(job), report });
 * root.prepend(notices.element);
 * notices.offer();
 * ```
 */
export function jobNotices(deps: {
  loadBulkJobs(): BulkJob[];
  clearBulkJob(id?: string): Promise<void>;
  damagedBulkJobs?(): { id: string | undefined; problem: string }[];
  resume(job: BulkJob): Promise<unknown>;
  report(error: unknown): void;
}): { element: HTMLElement; offer(): void; prune(): void } {
  const box = element("section", {
    id: "resume",
    class: "notice",
    hidden: true,
    "aria-label": "Interrupted bulk",
  });
  const refresh = () => (box.hidden = box.childElementCount === 0);

  const notice = (job: BulkJob, index: number): HTMLElement => {
    const suffix = index === 0 ? "" : `-${index + 1}`;
    if (job.keptOnly) return keptNotice(job, suffix);
    const resumable = (job.token?.groupIds.length ?? 0) > 0 && !job.expired;
    const resume = element(
      "fluent-button",
      { id: `resume-run${suffix}`, appearance: "accent" },
      "Resume"
    );
    const forget = element("fluent-button", { id: `forget-run${suffix}` }, "Forget");
    const text = job.expired
      ? `A bulk of ${job.rows.length} rows (spell "${job.spellId}", sheet ${job.sheet}) can no longer be collected: ` +
        "the service no longer knows its runs (they expired). Forget it; rows without a status can be run again."
      : resumable
        ? `A bulk of ${job.rows.length} rows (spell "${job.spellId}", sheet ${job.sheet}) did not finish here. ` +
          "Resume collects its results; finished rows are not run again."
        : `A bulk of ${job.rows.length} rows (spell "${job.spellId}") was interrupted before the service confirmed it. ` +
          "Its rows may have run: check their status cells before running them again.";
    const item = element(
      "div",
      { class: "job", "data-job-id": job.id ?? "" },
      element("p", {}, text),
      element("div", { class: "actions" }, ...(resumable ? [resume, forget] : [forget]))
    );
    resume.addEventListener("click", async () => {
      item.remove();
      refresh();
      try {
        await deps.resume(job);
      } catch (error) {
        deps.report(error);
      }
    });
    forget.addEventListener("click", async () => {
      await deps.clearBulkJob(job.id);
      item.remove();
      refresh();
    });
    return item;
  };

  /**
   * A finished bulk whose results for deleted rows are kept: write them under the block (only
   * into empty rows), Copy them, or Forget.
   */
  const keptNotice = (job: BulkJob, suffix: string): HTMLElement => {
    const kept = loadKeptResults(job.id);
    const copy = element(
      "fluent-button",
      { id: `copy-kept-job${suffix}`, appearance: "accent" },
      "Copy kept results"
    );
    const below = element(
      "fluent-button",
      { id: `write-kept-job${suffix}` },
      "Write below the block"
    );
    const forget = element("fluent-button", { id: `forget-run${suffix}` }, "Forget");
    const item = element(
      "div",
      { class: "job" },
      element(
        "p",
        {},
        `A bulk (spell "${job.spellId}", sheet ${job.sheet}) finished, but ${kept.length} ` +
          `result${kept.length === 1 ? "" : "s"} could not be placed: ${kept.length === 1 ? "its row was" : "their rows were"} ` +
          `deleted, or ${kept.length === 1 ? "its" : "their"} output cells typed into, during the run. ` +
          "Write them as new rows under the block (only into empty rows), " +
          "or copy them to paste where they belong, then Forget."
      ),
      element("div", { class: "actions" }, copy, below, forget)
    );
    below.addEventListener("click", async () => {
      try {
        await writeKeptBelow(job, kept);
        await deps.clearBulkJob(job.id);
        if (job.blockName) await deleteBlockName(job.blockName).catch(() => undefined);
        item.remove();
        refresh();
      } catch (error) {
        deps.report(error);
      }
    });
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(
          keptResultsText(kept, job.outputNames, job.inputHeaders ?? job.inputNames)
        );
        copy.textContent = "Copied";
      } catch (error) {
        deps.report(error);
      }
    });
    forget.addEventListener("click", async () => {
      await deps.clearBulkJob(job.id);
      item.remove();
      refresh();
    });
    return item;
  };

  /** A stored job that may not be used (damaged, or crafted): why, and Forget. */
  const damagedNotice = (
    damaged: { id: string | undefined; problem: string },
    index: number
  ): HTMLElement => {
    const forget = element("fluent-button", { id: `forget-damaged-${index + 1}` }, "Forget");
    const item = element(
      "div",
      { class: "job" },
      element(
        "p",
        {},
        `This workbook holds a stored bulk that cannot be used: ${damaged.problem}. Forget it; no run was started for it.`
      ),
      element("div", { class: "actions" }, forget)
    );
    forget.addEventListener("click", async () => {
      await deps.clearBulkJob(damaged.id);
      item.remove();
      refresh();
    });
    return item;
  };

  return {
    element: box,
    offer: () => {
      box.replaceChildren(
        ...(deps.damagedBulkJobs?.() ?? []).map(damagedNotice),
        ...deps.loadBulkJobs().map(notice)
      );
      refresh();
    },
    // A notice whose job is no longer stored (finished by Retry failed rows, forgotten) goes.
    prune: () => {
      const stored = new Set(deps.loadBulkJobs().map((job) => job.id ?? ""));
      for (const item of box.querySelectorAll<HTMLElement>(".job[data-job-id]")) {
        if (!stored.has(item.dataset.jobId ?? "")) item.remove();
      }
      refresh();
    },
  };
}
