import { element } from "./element.js";

/**
 * The spell ID field with the recent spells, as a combobox (WAI-ARIA "combobox with listbox
 * popup"): the list shows the recent ids that contain what is typed; Down and Up move through it,
 * Enter takes the highlighted id, Escape closes it; the chevron opens the whole list (also before
 * a first run, saying there is none yet). The list is in the page's flow under the field, so it
 * pushes the buttons down instead of covering them, and the field's value is always what the
 * user typed or took: the buttons use it.
 *
 * ## Example
 * ```ts
 * const spell = spellCombobox();
 * spell.setRecent(await recentSpells());
 * form.append(spell.element);
 * run.onclick = () => start(spell.input.value.trim());
 * ```
 *
 * @return The field's wrapper, its input (`#spell-id`) and the setter of the recent ids.
 */
export function spellCombobox(): {
  element: HTMLElement;
  input: HTMLInputElement;
  setRecent(ids: readonly string[]): void;
} {
  let recent: readonly string[] = [];
  let shown: string[] = [];
  let active = -1;
  const input = element("input", {
    id: "spell-id",
    type: "text",
    class: "text-input",
    role: "combobox",
    autocomplete: "off",
    spellcheck: "false",
    "aria-labelledby": "spell-id-label",
    "aria-autocomplete": "list",
    "aria-expanded": "false",
    "aria-controls": "recent-spells",
    placeholder: "e.g. summarize",
  }) as HTMLInputElement;
  const chevron = element(
    "button",
    {
      id: "recent-spells-button",
      type: "button",
      class: "chevron",
      tabindex: -1,
      "aria-label": "Recent spells",
      "aria-controls": "recent-spells",
      "aria-expanded": "false",
    },
    "▾"
  );
  const list = element("ul", {
    id: "recent-spells",
    role: "listbox",
    "aria-label": "Recent spells",
    class: "listbox",
    hidden: true,
  });

  // Outside the listbox: a listbox holds options only.
  const empty = element(
    "p",
    { id: "recent-spells-empty", class: "hint", role: "status", hidden: true },
    "No recent spells yet: the spells you run are listed here."
  );

  const close = () => {
    list.hidden = true;
    empty.hidden = true;
    active = -1;
    input.setAttribute("aria-expanded", "false");
    chevron.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  };
  const render = () => {
    list.replaceChildren(
      ...shown.map((id, index) =>
        element(
          "li",
          {
            id: `recent-spell-${index}`,
            role: "option",
            "aria-selected": index === active ? "true" : "false",
          },
          id
        )
      )
    );
    if (active >= 0) input.setAttribute("aria-activedescendant", `recent-spell-${active}`);
    else input.removeAttribute("aria-activedescendant");
  };
  const open = (filter: string) => {
    const typed = filter.trim().toLowerCase();
    shown = recent.filter((id) => id.toLowerCase().includes(typed));
    active = -1;
    close();
    if (shown.length === 0) {
      // Only the chevron asks for the whole list: say why it is empty.
      empty.hidden = typed !== "" || recent.length > 0;
      return;
    }
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    chevron.setAttribute("aria-expanded", "true");
    render();
  };
  const take = (id: string) => {
    input.value = id;
    close();
    input.dispatchEvent(new Event("change", { bubbles: true }));
  };

  input.addEventListener("input", () => open(input.value));
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (list.hidden) open(input.value);
      if (shown.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      active = (active + step + shown.length) % shown.length;
      render();
    } else if (event.key === "Enter" && !list.hidden && active >= 0) {
      event.preventDefault();
      take(shown[active]);
    } else if (event.key === "Escape" && !list.hidden) {
      event.preventDefault();
      close();
    }
  });
  input.addEventListener("blur", () => setTimeout(close, 150));
  chevron.addEventListener("click", () => {
    if (list.hidden && empty.hidden) open("");
    else close();
    input.focus();
  });
  // mousedown, not click: taken before the input's blur closes the list.
  list.addEventListener("mousedown", (event) => {
    const option = (event.target as HTMLElement).closest('[role="option"]');
    if (!option) return;
    event.preventDefault();
    take(option.textContent ?? "");
  });

  return {
    element: element(
      "div",
      { class: "combobox" },
      element("div", { class: "combobox-row" }, input, chevron),
      list,
      empty
    ),
    input,
    setRecent: (ids) => {
      recent = [...ids];
      if (!list.hidden) open(input.value);
    },
  };
}
