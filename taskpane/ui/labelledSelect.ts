import { element } from "./element.js";

/**
 * A `fluent-select` named by a visible label, in a `div.field` (label above, select below): the
 * label is a real `<label for>` with the id `<id>-label`, which the select names in its
 * `aria-labelledby`.
 *
 * ## Example
 * ```ts
 * const { field, select } = labelledSelect("auth-header", "Send the key as", [
 *   ["authorization", "Authorization: Bearer <key>"],
 *   ["x-api-key", "x-api-key: <key>"],
 * ]);
 * form.append(field);
 * select.value = "x-api-key";
 * ```
 * @param id The select's id; the label's is `<id>-label`.
 * @param label The label's text.
 * @param options Each option's value and text, in order.
 * @return The `div.field` to place, and the select to read and set.
 */
export function labelledSelect(
  id: string,
  label: string,
  options: ReadonlyArray<readonly [value: string, text: string]>
): { field: HTMLElement; select: HTMLElement & { value: string } } {
  const labelId = `${id}-label`;
  const select = element(
    "fluent-select",
    { id, "aria-labelledby": labelId },
    ...options.map(([value, text]) => element("fluent-option", { value }, text))
  ) as HTMLElement & { value: string };
  const field = element(
    "div",
    { class: "field" },
    element("label", { id: labelId, for: id }, label),
    select
  );
  return { field, select };
}
