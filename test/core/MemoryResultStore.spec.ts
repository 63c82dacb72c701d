import { canonicalJson } from "../../src/util/canonicalJson.js";
import { MemoryResultStore, SpellClient } from "../../src/index.js";

describe("MemoryResultStore", () => {
  it("should return outputs until their TTL, then forget them", () => {
    let now = 1000;
    const store = new MemoryResultStore(10, () => now);
    store.set("k", { a: 1 }, 500);
    expect(store.get("k")).toEqual({ a: 1 });
    now = 1499;
    expect(store.get("k")).toEqual({ a: 1 });
    now = 1500;
    expect(store.get("k")).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("should forget a deleted key and keep the others", () => {
    const store = new MemoryResultStore(10);
    store.set("a", { a: 1 }, 500);
    store.set("b", { b: 2 }, 500);
    store.delete("a");
    expect(store.get("a")).toBeUndefined();
    expect(store.get("b")).toEqual({ b: 2 });
    expect(store.size).toBe(1);
  });

  it("should evict the oldest entry beyond maxEntries", () => {
    const store = new MemoryResultStore(2);
    store.set("a", { n: 1 }, 60_000);
    store.set("b", { n: 2 }, 60_000);
    store.set("a", { n: 3 }, 60_000); // rewriting makes "a" the newest
    store.set("c", { n: 4 }, 60_000);
    expect(store.get("b")).toBeUndefined();
    expect(store.get("a")).toEqual({ n: 3 });
    expect(store.get("c")).toEqual({ n: 4 });
  });
});

describe("canonicalJson", () => {
  it("should sort object keys at every depth and keep array order", () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe('{"a":[2,{"c":4,"d":3}],"b":1}');
    expect(canonicalJson({ when: new Date(0), skip: undefined })).toBe(
      '{"when":"1970-01-01T00:00:00.000Z"}'
    );
  });

  it("should write exactly what JSON.stringify of a copy with sorted keys gives (keys stored earlier still match)", () => {
    // What earlier versions computed: a copy whose keys were inserted sorted, then JSON.stringify.
    const sortedCopy = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(sortedCopy);
      if (value === null || typeof value !== "object") return value;
      const withToJson = value as { toJSON?: () => unknown };
      if (typeof withToJson.toJSON === "function") return sortedCopy(withToJson.toJSON());
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(value).sort()) {
        copy[key] = sortedCopy((value as Record<string, unknown>)[key]);
      }
      return copy;
    };
    const samples: unknown[] = [
      { text: 'Hello "world"\n', row: 3, ok: true, none: null },
      { "10": "ten", "9": "nine", b: 1, "01": "not an index", "": "empty", "4294967295": "big" },
      [1, undefined, () => 1, { z: [{ y: 2, x: NaN }] }, -0, 1e21],
      { nested: { deep: { c: [], b: {}, a: "é\u2028😀" } }, f: () => 1, s: undefined },
      "plain",
      42,
      null,
      [],
      {},
    ];
    for (const sample of samples) {
      expect(canonicalJson(sample))
        .withContext(String(JSON.stringify(sample)))
        .toBe(JSON.stringify(sortedCopy(sample)));
    }
  });
});

describe("SpellClient.reuseKey", () => {
  const client = new SpellClient({
    apiKey: "secret-key",
    baseUrl: "http://a.test/",
    pollBaseUrl: "http://p.test",
  });

  it("should not depend on key order and differ by spell, inputs and service", () => {
    const key = client.reuseKey("echo", { a: 1, b: { c: 2, d: 3 } });
    expect(client.reuseKey("echo", { b: { d: 3, c: 2 }, a: 1 })).toBe(key);
    expect(client.reuseKey("echo2", { a: 1, b: { c: 2, d: 3 } })).not.toBe(key);
    expect(client.reuseKey("echo", { a: "1", b: { c: 2, d: 3 } })).not.toBe(key);
    const other = new SpellClient({
      apiKey: "secret-key",
      baseUrl: "http://b.test",
      pollBaseUrl: "http://p.test",
    });
    expect(other.reuseKey("echo", { a: 1, b: { c: 2, d: 3 } })).not.toBe(key);
  });

  it("should not contain the API key", () => {
    expect(client.reuseKey("echo", {})).not.toContain("secret-key");
  });
});
