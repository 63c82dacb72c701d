import axe from "axe-core";
import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import { mountBulkView } from "../../taskpane/ui/bulkView.js";
import { registerFluent } from "../../taskpane/ui/registerFluent.js";
import { emulatorClient, bulkViewDeps, workbookWith } from "./taskpaneTestKit.js";

/** The recent-spells list of the spell ID field, used as a person would. */
describe("the spell ID field's recent spells (a combobox)", () => {
  let root: HTMLElement;
  let uninstall: () => void = () => undefined;

  const byId = (id: string) => root.querySelector(`#${id}`) as HTMLElement;
  const input = () => byId("spell-id") as HTMLInputElement;
  const shownOptions = () =>
    byId("recent-spells").hidden
      ? []
      : Array.from(byId("recent-spells").querySelectorAll('[role="option"]')).map(
          (option) => option.textContent
        );
  const type = (text: string) => {
    input().focus();
    input().value = text;
    input().dispatchEvent(new Event("input", { bubbles: true }));
  };
  const press = (key: string) =>
    input().dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));

  async function mount(recent: string[]): Promise<void> {
    await mountBulkView(
      root,
      bulkViewDeps(new BulkRunController(emulatorClient()), { recentSpells: async () => recent })
    );
  }

  beforeEach(() => {
    registerFluent();
    root = document.createElement("div");
    document.body.append(root);
    uninstall = workbookWith([["text"], ["a"]]).install();
  });
  afterEach(() => {
    root.remove();
    uninstall();
  });

  it("should list only the recent spells containing what is typed, and take one with the keyboard", async () => {
    await mount(["summarize", "sentiment", "translate", "sentences"]);

    type("sen");
    expect(shownOptions()).toEqual(["sentiment", "sentences"]);
    expect(input().getAttribute("aria-expanded")).toBe("true");

    press("ArrowDown");
    press("ArrowDown");
    expect(input().getAttribute("aria-activedescendant")).toBe("recent-spell-1");
    press("Enter");
    expect(input().value).toBe("sentences");
    expect(shownOptions()).toEqual([]);

    type("s");
    press("Escape");
    expect(shownOptions()).toEqual([]);
    expect(input().value).toBe("s");
  });

  it("should keep what is typed (the buttons use it), and never cover the buttons", async () => {
    await mount(["summarize", "sentiment"]);
    type("su");
    expect(shownOptions()).toEqual(["summarize"]);
    type("my-own-spell");
    expect(input().value).toBe("my-own-spell");

    byId("recent-spells-button").click();
    expect(shownOptions()).toEqual(["summarize", "sentiment"]);
    const list = byId("recent-spells").getBoundingClientRect();
    const button = byId("use-selection").getBoundingClientRect();
    expect(list.bottom <= button.top || list.top >= button.bottom).toBeTrue();
    expect(input().value).toBe("my-own-spell");
  });

  it("should open from the chevron before a first run, saying there is none yet, with no serious axe violation", async () => {
    await mount([]);

    byId("recent-spells-button").click();

    expect(byId("recent-spells-empty").hidden).toBeFalse();
    expect(byId("recent-spells-empty").textContent).toContain("No recent spells yet");
    const results = await axe.run(root, { resultTypes: ["violations"] });
    expect(
      results.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map((violation) => `${violation.id}: ${violation.nodes.map((n) => n.html).join(" | ")}`)
    ).toEqual([]);
  });
});
