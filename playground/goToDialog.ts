/**
 * Excel's Go To dialog (Ctrl+G, F5): a "Reference" box, OK and Cancel. OK or Enter goes to the
 * reference typed ("XFD1048576", "B2:C9", "Sheet2!A1", read as the Name Box reads it); a reference
 * that is not one says so and goes nowhere, the dialog staying open; Cancel or Escape closes it.
 * Either way the keyboard goes back to the grid, where what is typed next goes into the active
 * cell. Excel's list of recent references and its "Special…" button are not offered.
 */
import { goToReference, type GoToTarget } from "./nameBox.js";

/** The Go To dialog of the page. */
export interface GoToDialog {
  /** The dialog element (a modal `<dialog>`). */
  readonly element: HTMLDialogElement;
  /** Opens the dialog, the keyboard in its Reference box. */
  open(): void;
}

/**
 * Builds the Go To dialog into `parent` (hidden until opened).
 *
 * @example
 * ```ts
 * const dialog = offerGoToDialog(document.body, grid, focusGrid);
 * dialog.open();
 * ```
 * @param parent Where the dialog goes in the page.
 * @param grid Where OK goes.
 * @param backToGrid Gives the keyboard back to the grid once the dialog is closed.
 */
export function offerGoToDialog(
  parent: HTMLElement,
  grid: GoToTarget,
  backToGrid: () => void
): GoToDialog {
  const dialog = document.createElement("dialog");
  dialog.className = "playground-goto";
  dialog.setAttribute("aria-labelledby", "playground-goto-title");
  const form = document.createElement("form");
  form.method = "dialog";
  const title = document.createElement("h2");
  title.id = "playground-goto-title";
  title.textContent = "Go To";
  const label = document.createElement("label");
  label.htmlFor = "playground-goto-reference";
  label.textContent = "Reference:";
  const input = document.createElement("input");
  input.id = "playground-goto-reference";
  input.type = "text";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.setAttribute("aria-describedby", "playground-goto-message");
  const message = document.createElement("p");
  message.id = "playground-goto-message";
  message.className = "playground-goto-message";
  message.setAttribute("role", "alert");
  const buttons = document.createElement("div");
  buttons.className = "playground-goto-buttons";
  const ok = document.createElement("button");
  ok.type = "submit";
  ok.textContent = "OK";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  buttons.append(ok, cancel);
  form.append(title, label, input, message, buttons);
  dialog.append(form);
  parent.append(dialog);

  // The grid's keys and clicks are not the dialog's (Escape still closes it: the browser's own);
  // a click here would otherwise end the grid's selection (jspreadsheet's, on the document).
  for (const type of ["keydown", "mousedown", "mouseup", "dblclick", "contextmenu", "paste"]) {
    dialog.addEventListener(type, (event) => event.stopPropagation());
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const failure = goToReference(grid, input.value);
    if (failure) {
      message.textContent = failure;
      input.select();
      return;
    }
    dialog.close();
  });
  cancel.addEventListener("click", () => dialog.close());
  // Escape (the dialog's cancel), Cancel and OK all close it: the grid takes the keyboard back.
  dialog.addEventListener("close", () => backToGrid());

  return {
    element: dialog,
    open: () => {
      if (dialog.open) return;
      input.value = "";
      message.textContent = "";
      // A closed modal dialog gives the keyboard back to what had it before, scrolled into view:
      // the grid's textarea at the cell clicked before Go To, which took the view (and the
      // grid's block) back there from the cell gone to, so that what was typed next was lost.
      // With nothing to give back to, `backToGrid` gives it to the grid, without scrolling.
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
      dialog.showModal();
      input.focus();
    },
  };
}
