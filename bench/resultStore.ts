/**
 * `npm run bench -- resultStore`: what the add-in's remembered results cost to write as a
 * filled-down column of `SPELL.RUN` cells streams its results in, at 2,000, 10,000 and 20,000
 * results, for the index in segments (`addin/PersistentResultStore.ts`) against the layout before
 * (`bench/singleIndexResultStore.ts`: one index item rewritten by every flush), both given
 * limits that hold every result. Results arrive 500 at a time (one bulk run's rows), one flush
 * each. Prints per layout: characters written in all, the last flush's characters and time (the
 * index at its largest), and the time of every flush together; then what the add-in's default
 * limits keep at each size. Storage is in memory: the figures are the store's own work (times: the
 * least of three runs).
 */
import { memoryStorage, type KeyValueStorage } from "../addin/keyValueStorage.js";
import { PersistentResultStore } from "../addin/PersistentResultStore.js";
import { SingleIndexResultStore } from "./singleIndexResultStore.js";

const SIZES = [2_000, 10_000, 20_000];
const CHUNK = 500;
const TTL_MS = 86_400_000;

/** A typical cell: a review of some 150 characters in, a summary of some 80 out. */
function cell(row: number): { key: string; outputs: Record<string, unknown> } {
  const text = `Review ${row}: the battery lasts two days, the screen is sharp, and delivery took a week longer than promised, which was annoying.`;
  return {
    key: `["https://api.spellrun.example/v1","summarize",${JSON.stringify({ text })}]`,
    outputs: { summary: `Good device, late delivery (${row}).`, sentiment: "mixed" },
  };
}

interface Counted {
  storage: KeyValueStorage;
  chars: () => number;
  /** Of them, the index's. */
  indexChars: () => number;
}

/** A storage in memory that counts the characters written (names and values). */
function countedStorage(): Counted {
  const inner = memoryStorage();
  let chars = 0;
  let indexChars = 0;
  return {
    storage: {
      ...inner,
      setItems: (items) => {
        for (const [key, value] of Object.entries(items)) {
          chars += key.length + value.length;
          if (key.includes(".index")) indexChars += key.length + value.length;
        }
        return inner.setItems(items);
      },
    },
    chars: () => chars,
    indexChars: () => indexChars,
  };
}

interface Figures {
  totalChars: number;
  lastFlushChars: number;
  lastFlushIndexChars: number;
  lastFlushMs: number;
  allFlushesMs: number;
  stored: number;
}

async function stream(
  size: number,
  make: (storage: KeyValueStorage) => {
    set: (key: string, outputs: Record<string, unknown>, ttlMs: number) => Promise<void>;
    flush: () => Promise<void>;
  }
): Promise<Figures> {
  const counted = countedStorage();
  const store = make(counted.storage);
  let allFlushesMs = 0;
  let lastFlushMs = 0;
  let lastFlushChars = 0;
  let lastFlushIndexChars = 0;
  for (let start = 0; start < size; start += CHUNK) {
    for (let row = start; row < Math.min(size, start + CHUNK); row++) {
      const { key, outputs } = cell(row);
      await store.set(key, outputs, TTL_MS);
    }
    const before = counted.chars();
    const indexBefore = counted.indexChars();
    const began = performance.now();
    await store.flush();
    lastFlushMs = performance.now() - began;
    allFlushesMs += lastFlushMs;
    lastFlushChars = counted.chars() - before;
    lastFlushIndexChars = counted.indexChars() - indexBefore;
  }
  // What a reload finds.
  const reloaded = make(counted.storage) as unknown as { get(key: string): unknown };
  let stored = 0;
  for (let row = 0; row < size; row++)
    if ((await reloaded.get(cell(row).key)) !== undefined) stored++;
  return {
    totalChars: counted.chars(),
    lastFlushChars,
    lastFlushIndexChars,
    lastFlushMs,
    allFlushesMs,
    stored,
  };
}

/** `stream` three times: the characters of one, the least times (the machine may be busy). */
async function best(size: number, make: Parameters<typeof stream>[1]): Promise<Figures> {
  const runs = [await stream(size, make), await stream(size, make), await stream(size, make)];
  return {
    ...runs[0],
    lastFlushMs: Math.min(...runs.map((run) => run.lastFlushMs)),
    allFlushesMs: Math.min(...runs.map((run) => run.allFlushesMs)),
  };
}

function line(name: string, size: number, figures: Figures, baseline?: Figures): string {
  const ratio = baseline ? (figures.totalChars / baseline.totalChars).toFixed(3) : "1.000";
  return `| ${name} | ${size.toLocaleString("en-US")} | ${figures.totalChars.toLocaleString("en-US")} | ${ratio} | ${figures.lastFlushChars.toLocaleString("en-US")} | ${figures.lastFlushIndexChars.toLocaleString("en-US")} | ${figures.lastFlushMs.toFixed(2)} | ${figures.allFlushesMs.toFixed(1)} | ${figures.stored.toLocaleString("en-US")} |`;
}

async function main(): Promise<void> {
  const unlimited = { maxEntries: 1_000_000, maxTotalChars: 1e9, flushDelayMs: 1e9 };
  // Warm-up (JIT), not measured.
  await stream(2_000, (storage) => new SingleIndexResultStore(storage, unlimited));
  await stream(2_000, (storage) => new PersistentResultStore(storage, unlimited));
  const sample = cell(0);
  console.log(
    `\nRemembered results written while a column streams in (${CHUNK} results per flush; an entry of ${JSON.stringify(sample).length} characters)\n`
  );
  console.log(
    "| layout | results | characters written | ratio to one index | last flush, characters | of them the index's | last flush, ms | all flushes, ms | kept after reload |"
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const size of SIZES) {
    const single = await best(size, (storage) => new SingleIndexResultStore(storage, unlimited));
    const segmented = await best(size, (storage) => new PersistentResultStore(storage, unlimited));
    const defaults = await best(
      size,
      (storage) => new PersistentResultStore(storage, { flushDelayMs: 1e9 })
    );
    const oldDefaults = await best(
      size,
      (storage) => new SingleIndexResultStore(storage, { flushDelayMs: 1e9 })
    );
    console.log(line("one index item (before)", size, single));
    console.log(line("index in segments", size, segmented, single));
    console.log(line("before, its default limits", size, oldDefaults, single));
    console.log(line("segments, default limits", size, defaults, single));
  }
}

void main();
