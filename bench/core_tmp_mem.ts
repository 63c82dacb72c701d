import { Subscription, type SchedulerLike, type SchedulerAction } from "rxjs";
import { SpellClient } from "../src/index.js";
const plain: SchedulerLike = { now: () => Date.now(), schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T) { const sub = new Subscription(); const id = setTimeout(() => work.call(sub as unknown as SchedulerAction<T>, state), delay); sub.add(() => clearTimeout(id)); return sub; } };
async function cpu(f: () => Promise<unknown>) { (globalThis as { gc?: () => void }).gc?.(); const b = process.cpuUsage(); await f(); const u = process.cpuUsage(b); return (u.user + u.system) / 1000; }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started = new Map<string, number>();
let seq = 0;
const fake = (async (input: RequestInfo | URL) => {
  await sleep(2);
  const url = String(input);
  if (url.endsWith("/start")) { const id = `r${seq++}`; started.set(id, Date.now()); return new Response(JSON.stringify({ runId: id })); }
  const id = url.slice(url.indexOf("runId=") + 6);
  const done = Date.now() - started.get(id)! >= 600;
  return new Response(JSON.stringify(done ? { state: "success", outputs: { slept: 600 } } : { state: "inProgress", outputs: {} }));
}) as typeof fetch;
async function base1() {
  const s = await fake("http://x/spells/start", {}); const { runId } = (await s.json()) as { runId: string };
  let interval = 250; await sleep(250);
  for (;;) { const q = (await (await fake(`http://p/spells/getRun?runId=${runId}`, {})).json()) as { state: string }; if (q.state !== "inProgress") return; await sleep(interval); interval *= 2; }
}
async function main() {
  const base = async () => { let next = 0; await Promise.all(Array.from({ length: 50 }, async () => { while (next < 150) { next++; await base1(); } })); };
  const cl = () => { const client = new SpellClient({ apiKey: "k", baseUrl: "http://x", pollBaseUrl: "http://p", maxInFlight: Number(process.env.MAX ?? 50), fetch: fake, ...(process.env.PLAIN ? { scheduler: plain } : {}) }); return Promise.all(Array.from({ length: 150 }, () => client.runOutputs("sleep", { ms: 600 }, { wait: false }))); };
  await base(); await cl();
  let a = 0, b = 0;
  for (let r = 0; r < 4; r++) { a += await cpu(base); b += await cpu(cl); }
  console.log("base", (a / 600).toFixed(3), "client", (b / 600).toFixed(3));
}
void main();
