import {
  fluentButton,
  fluentCheckbox,
  fluentCombobox,
  fluentDivider,
  fluentNumberField,
  fluentOption,
  fluentProgress,
  fluentSelect,
  fluentTab,
  fluentTabPanel,
  fluentTabs,
  fluentTextField,
  provideFluentDesignSystem,
} from "@fluentui/web-components";

let registered = false;

/**
 * Registers the Fluent UI web components the task pane uses (once per page).
 *
 * ## Example
 * ```ts
 * registerFluent();
 * document.body.innerHTML = `<fluent-button appearance="accent">Run</fluent-button>`;
 * ```
 */
export function registerFluent(): void {
  if (registered) return;
  registered = true;
  provideFluentDesignSystem().register(
    fluentButton(),
    fluentCheckbox(),
    fluentCombobox(),
    fluentDivider(),
    fluentNumberField(),
    fluentOption(),
    fluentProgress(),
    fluentSelect(),
    fluentTab(),
    fluentTabPanel(),
    fluentTabs(),
    fluentTextField()
  );
}
