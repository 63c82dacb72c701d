import { BULK_PREVIEW_TEXT } from "../../functions/bulkSpell.js";
import { lazyBulkSpell } from "../../functions/lazyBulkSpell.js";
import { streamingInvocation } from "./support/excelInvocations.js";

describe("lazyBulkSpell", () => {
  it("should hand the call to SPELL.BULK once its module is loaded", async () => {
    const invocation = streamingInvocation({ preview: true });
    await lazyBulkSpell("echo", [["text"], ["hi"]], null, invocation);
    expect(invocation.results).toEqual([[[BULK_PREVIEW_TEXT]]]);
  });

  it("should start nothing for a call Excel cancelled while the module loaded", async () => {
    // Not a preview, and no settings: started, the call would show an error for its missing key.
    const invocation = streamingInvocation();
    const loaded = lazyBulkSpell("echo", [["text"], ["hi"]], null, invocation);
    invocation.cancel();
    await loaded;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(invocation.results).toEqual([]);
  });
});
