// Child process of processExit.spec.ts: against a service that answers late or never, with one
// request and one run at a time, subscribes to a bulk (its bulkStart pending) and to a run queued
// behind it, unsubscribes both after a moment, and then does nothing. The process must exit by
// itself within the start time limit (SPELL_START_MS): whatever the bulkStart left in the
// background (its answer, then the cancelBulk of its group) ends by then. SPELL_READ_MS
// (default: the start limit) is the time limit of the cancelBulk request itself.
import { SpellClient } from "../../../src/index.js";

const { SPELL_BASE_URL, SPELL_START_MS, SPELL_READ_MS } = process.env;
const client = new SpellClient({
  baseUrl: SPELL_BASE_URL as string,
  pollBaseUrl: SPELL_BASE_URL as string,
  apiKey: "k",
  maxInFlight: 1,
  maxRunsInProgress: 1,
  timeouts: { startMs: Number(SPELL_START_MS), readMs: Number(SPELL_READ_MS ?? SPELL_START_MS) },
});
const subscriptions = [
  client.bulk("sleep", [{ ms: 1 }]).subscribe({ error: () => undefined }),
  client.run("sleep", { ms: 1 }, { wait: false }).subscribe({ error: () => undefined }),
];
setTimeout(() => {
  for (const subscription of subscriptions) subscription.unsubscribe();
  process.stdout.write("unsubscribed\n");
}, 300);
