// Child process of processExit.spec.ts: against a service that never answers, with one request
// and one run at a time, subscribes to a bulk (its bulkStart hangs) and to a run queued behind
// it, unsubscribes both after a moment, and then does nothing. The process must exit by itself
// once the start time limit (SPELL_START_MS) has ended the bulkStart left in the background.
import { SpellClient } from "../../../src/index.js";

const { SPELL_BASE_URL, SPELL_START_MS } = process.env;
const client = new SpellClient({
  baseUrl: SPELL_BASE_URL as string,
  pollBaseUrl: SPELL_BASE_URL as string,
  apiKey: "k",
  maxInFlight: 1,
  maxRunsInProgress: 1,
  timeouts: { startMs: Number(SPELL_START_MS), readMs: Number(SPELL_START_MS) },
});
const subscriptions = [
  client.bulk("sleep", [{ ms: 1 }]).subscribe({ error: () => undefined }),
  client.run("sleep", { ms: 1 }, { wait: false }).subscribe({ error: () => undefined }),
];
setTimeout(() => {
  for (const subscription of subscriptions) subscription.unsubscribe();
  process.stdout.write("unsubscribed\n");
}, 300);
