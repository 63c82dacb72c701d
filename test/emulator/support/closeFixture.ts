// Started as a child process by lifecycle.spec.ts: the process must exit by itself after close(),
// even with a keep-alive connection open and a wait-mode request still held.
import { startEmulator } from "../../../emulator/startEmulator.js";

async function main(): Promise<void> {
  const emulator = await startEmulator({ timeScale: 1, ttlMs: 1_000 });
  const headers = {
    authorization: `Bearer ${emulator.apiKey}`,
    "content-type": "application/json",
  };
  const started = await fetch(`${emulator.baseUrl}/spells/start`, {
    method: "POST",
    headers,
    body: JSON.stringify({ spellId: "sleep", wait: false, inputs: { ms: 60_000 } }),
  });
  await started.json();
  const held = fetch(`${emulator.baseUrl}/spells/start`, {
    method: "POST",
    headers,
    body: JSON.stringify({ spellId: "sleep", wait: true, inputs: { ms: 60_000 } }),
  }).then(
    (response) => `held request answered ${response.status}`,
    () => "held request dropped"
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  await emulator.close();
  console.log(await held);
  console.log("closed");
}

void main();
