import type { SpellClientOptions } from "../../../src/types.js";

/**
 * A service answering every wait-mode start at once with `{ spellId }` as its outputs; notes the
 * spells started, in the order their starts were sent.
 *
 * ## Example
 * ```ts
 * const { started, options } = answeringService();
 * new SpellClient(options).run("a", {}).subscribe();
 * ```
 * @return the spells started so far and client options whose `fetch` is that service
 */
export function answeringService(): { started: string[]; options: SpellClientOptions } {
  const started: string[] = [];
  const fetch = (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const { spellId } = JSON.parse(String(init?.body)) as { spellId: string };
    started.push(spellId);
    return Promise.resolve(
      new Response(JSON.stringify({ state: "success", outputs: { spellId } }), {
        status: 200,
        headers: { "content-type": "application/json" },
      })
    );
  };
  return {
    started,
    options: {
      apiKey: "spec-key-0123456789",
      baseUrl: "https://spell.example",
      pollBaseUrl: "https://poll.spell.example",
      fetch,
    },
  };
}
