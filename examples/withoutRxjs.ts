// The promise helpers, for code without RxJS: the outputs of one run, the rows of a bulk, and an
// AbortSignal that stops waiting (and cancels the unfinished bulk groups).
// Against the emulator: `npm run emulator`, then `npx tsx examples/withoutRxjs.ts`.
import { SpellClient, SpellError } from "spellrun";

const client = new SpellClient({
  apiKey: process.env.SPELL_API_KEY ?? "spellrun-dev-key",
  baseUrl: process.env.SPELL_BASE_URL ?? "http://127.0.0.1:3001",
  pollBaseUrl: process.env.SPELL_POLL_BASE_URL ?? "http://127.0.0.1:3002",
});

async function main(): Promise<void> {
  const outputs = await client.runOutputs("translate", { text: "hello world", language: "es" });
  console.log("translation:", outputs.translation);

  const rows = await client.bulkOutputs(
    "echo",
    [1, 2, 3].map((n) => ({ n })),
    { signal: AbortSignal.timeout(60_000) }
  );
  console.log("echoed:", rows.map((row) => row.outputs.n).join(", "));

  // A polled run with a known duration: polls wait until about then instead of polling early.
  const slept = await client.runOutputs(
    "sleep",
    { ms: 1500 },
    { wait: false, expectedDurationMs: 1500 }
  );
  console.log("slept:", slept.slept);
}

main().catch((error: unknown) => {
  console.error(error instanceof SpellError ? `${error.name}: ${error.message}` : error);
  process.exitCode = 1;
});
