// Child process of processExit.spec.ts: subscribes to a long poll run, a chunked bulk and a wait
// run, unsubscribes after a moment, and then does nothing. The process must exit by itself.
import { SpellClient } from "../../../src/index.js";

const { SPELL_BASE_URL, SPELL_POLL_BASE_URL, SPELL_API_KEY } = process.env;
const client = new SpellClient({
  baseUrl: SPELL_BASE_URL as string,
  pollBaseUrl: SPELL_POLL_BASE_URL as string,
  apiKey: SPELL_API_KEY as string,
  bulkChunkSize: 5,
});
const subscriptions = [
  client.run("sleep", { ms: 600_000 }, { wait: false }).subscribe(),
  client.run("sleep", { ms: 600_000 }, { wait: true }).subscribe(),
  client
    .bulk(
      "sleep",
      Array.from({ length: 12 }, () => ({ ms: 600_000 }))
    )
    .subscribe(),
];
setTimeout(() => {
  for (const subscription of subscriptions) subscription.unsubscribe();
  process.stdout.write("unsubscribed\n");
}, 800);
