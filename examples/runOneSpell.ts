// Run one spell in wait mode, then in polling mode, and handle a run that fails.
// Against the emulator: `npm run emulator`, then `npx tsx examples/runOneSpell.ts`.
import { lastValueFrom } from "rxjs";
import { SpellClient, SpellError, SpellRunError } from "spellrun";

const client = new SpellClient({
  apiKey: process.env.SPELL_API_KEY ?? "spellrun-dev-key",
  baseUrl: process.env.SPELL_BASE_URL ?? "http://127.0.0.1:3001", // start, bulkStart, cancelBulk, getBulkRuns
  pollBaseUrl: process.env.SPELL_POLL_BASE_URL ?? "http://127.0.0.1:3002", // getRun
});

async function main(): Promise<void> {
  // Wait mode (the default): one request, one success snapshot.
  const summary = await lastValueFrom(
    client.run("summarize", { text: "Spells are stored AI workflows. They run on demand." })
  );
  console.log("summary:", summary.outputs.summary);

  // Polling mode: inProgress with the run id at once, then one snapshot per change of state.
  const polled = await lastValueFrom(
    client.run("sentiment", { text: "I love it" }, { wait: false })
  );
  console.log("sentiment:", polled.outputs.label, "run", polled.runId);

  // A run that ends in failure or error is a SpellRunError with its state and outputs.
  try {
    await lastValueFrom(client.run("always-fails", {}));
  } catch (error) {
    if (error instanceof SpellRunError)
      console.log("failed as expected:", error.state, error.outputs);
    else throw error;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof SpellError ? `${error.name}: ${error.message}` : error);
  process.exitCode = 1;
});
