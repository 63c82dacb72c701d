import { firstValueFrom, lastValueFrom } from "rxjs";
import { SpellApi } from "../src/http/SpellApi.js";
async function cpu(f: () => Promise<unknown>) { (globalThis as { gc?: () => void }).gc?.(); const b = process.cpuUsage(); await f(); const u = process.cpuUsage(b); return (u.user + u.system) / 1000; }
const body = JSON.stringify({ state: "inProgress", outputs: {} });
const fake = (async () => new Response(body)) as unknown as typeof fetch;
const api = new SpellApi({ apiKey: "k", baseUrl: "http://x", pollBaseUrl: "http://p", fetch: fake });
const N = 20000;
const raw = async () => { for (let i = 0; i < N; i++) { const r = await fake("http://p/spells/getRun?runId=1", { headers: {} }); await r.json(); } };
const rawAbort = async () => { for (let i = 0; i < N; i++) { const ac = new AbortController(); const r = await fake("http://p/spells/getRun?runId=1", { headers: {}, signal: ac.signal }); await r.json(); } };
const ours = async () => { for (let i = 0; i < N; i++) await firstValueFrom(api.getRun(1)); };
const oursLast = async () => { for (let i = 0; i < N; i++) await lastValueFrom(api.getRun(1)); };
async function main() {
  const v: Record<string, () => Promise<void>> = { raw, rawAbort, ours, oursLast };
  for (const k in v) await v[k]();
  const t: Record<string, number> = {};
  for (let r = 0; r < 3; r++) for (const k in v) t[k] = (t[k] ?? 0) + (await cpu(v[k]));
  console.log(Object.fromEntries(Object.entries(t).map(([k, x]) => [k, ((x / (3 * N)) * 1000).toFixed(1) + "µs"])));
}
void main();
