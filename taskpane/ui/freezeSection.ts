import { element } from "./element.js";

/**
 * The "Freeze SPELL formulas in selection" part of the bulk view: a button and a status line.
 *
 * ## Example
 * ```ts
 * root.append(freezeSection(freezeFormulas));
 * ```
 */
export function freezeSection(freezeFormulas: () => Promise<{ frozen: number }>): HTMLElement {
  const freeze = element("fluent-button", { id: "freeze" }, "Freeze SPELL formulas in selection");
  const freezeStatus = element("p", {
    id: "freeze-status",
    class: "hint",
    role: "status",
    "aria-live": "polite",
  });
  freeze.addEventListener("click", async () => {
    freeze.setAttribute("disabled", "");
    try {
      const { frozen } = await freezeFormulas();
      freezeStatus.textContent = frozen
        ? `Froze ${frozen} cell${frozen === 1 ? "" : "s"}.`
        : "No SPELL formulas in the selection.";
    } catch (error) {
      freezeStatus.textContent = `Could not freeze: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      freeze.removeAttribute("disabled");
    }
  });
  return element(
    "div",
    { class: "stack" },
    element(
      "p",
      { class: "hint" },
      "Replace SPELL formulas in the selection by their values, so paid results never recalculate."
    ),
    element("div", { class: "actions" }, freeze),
    freezeStatus
  );
}
