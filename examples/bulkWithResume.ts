// Run one spell over many inputs, watch progress, and pick the bulk up again from its resume
// token, as a page would after a reload (here a second client in the same process).
// Against the emulator: `npm run emulator`, then `npx tsx examples/bulkWithResume.ts`.
import { filter, firstValueFrom, lastValueFrom, map, shareReplay, tap } from "rxjs";
import { SpellClient, SpellError, type BulkResumeToken } from "spellrun";

const connection = {
  apiKey: process.env.SPELL_API_KEY ?? "spellrun-dev-key",
  baseUrl: process.env.SPELL_BASE_URL ?? "http://127.0.0.1:3001",
  pollBaseUrl: process.env.SPELL_POLL_BASE_URL ?? "http://127.0.0.1:3002",
};
const texts = ["I love it", "This is terrible", "It is a chair", "Great and wonderful", "Bad"];

async function main(): Promise<void> {
  const inputs = texts.map((text) => ({ text }));
  // One bulk (Observables are cold: each subscription would start another), watched twice.
  const bulk$ = new SpellClient(connection).bulk("sentiment", inputs).pipe(
    tap((snapshot) => console.log(`progress: ${snapshot.counts.success}/${snapshot.total}`)),
    shareReplay({ bufferSize: 1, refCount: true })
  );
  const finished = lastValueFrom(bulk$);

  // Keep the resume token somewhere that survives a reload (a file, document settings…).
  const saved = await firstValueFrom(
    bulk$.pipe(
      filter((snapshot) => snapshot.groupIds.length > 0),
      map((snapshot) => JSON.stringify(snapshot.resume))
    )
  );

  // "After the reload": a new client re-attaches with the token; runs[i] belongs to inputs[i].
  const token = JSON.parse(saved) as BulkResumeToken;
  const resumed = await lastValueFrom(new SpellClient(connection).resumeBulk(token, inputs.length));
  resumed.runs.forEach((run, index) =>
    console.log(`${texts[index]} → ${String(run.outputs.label)}`)
  );
  await finished;
}

main().catch((error: unknown) => {
  console.error(error instanceof SpellError ? `${error.name}: ${error.message}` : error);
  process.exitCode = 1;
});
