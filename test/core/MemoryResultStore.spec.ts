import { canonicalJson } from "../../src/internal/canonicalJson.js";
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
