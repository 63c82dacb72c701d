/** Attributes of `element`: strings and numbers become attributes, `true` an empty one, `false`/`undefined` none. */
export type Attributes = Record<string, string | number | boolean | undefined>;

/**
 * Creates an element with attributes and children (strings become text, never HTML, so cell
 * contents and service messages cannot inject markup).
 *
 * ## Example
 * ```ts
 * element("fluent-button", { appearance: "accent", id: "run" }, "Run");
 * ```
 */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K | string,
  attributes: Attributes = {},
  ...children: Array<Node | string>
): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children);
  return node;
}
