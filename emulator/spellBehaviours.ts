import { createHash } from "node:crypto";
/** Where a finished run ended and what it produced. */
export interface SpellOutcome {
  state: "success" | "failure" | "error";
  outputs: Record<string, unknown>;
}

/**
 * A demo spell's transform: a small deterministic function of its inputs, so tests can assert
 * exact outputs. `durationMs` lets a behaviour choose its own duration (the `sleep` spell).
 *
 * @example
 * ```ts
 * const outcome = SPELL_BEHAVIOURS.summarize.run({ text: "One. Two." }, ["text"]);
 * // { state: "success", outputs: { summary: "One.", words: 2 } }
 * ```
 */
export interface SpellBehaviour {
  run(inputs: Record<string, unknown>, inputNames: readonly string[]): SpellOutcome;
  durationMs?(inputs: Record<string, unknown>, baseDurationMs: number): number;
}

const POSITIVE_WORDS = new Set(
  "good great excellent love happy wonderful fantastic nice best awesome like enjoy pleased amazing superb".split(
    " "
  )
);
const NEGATIVE_WORDS = new Set(
  // Also the words of everyday complaints (the playground's demo reviews: "The strap broke…").
  (
    "bad terrible awful hate sad horrible worst poor angry disappointing dislike broken slow ugly " +
    "broke stopped returned missing wrong faded loud hot drops scratches crashes"
  ).split(" ")
);
const DICTIONARIES: Record<string, Record<string, string>> = {
  es: {
    hello: "hola",
    world: "mundo",
    good: "bueno",
    morning: "mañana",
    thank: "gracias",
    you: "tú",
    cat: "gato",
    dog: "perro",
    the: "el",
    and: "y",
    is: "es",
  },
  fr: {
    hello: "bonjour",
    world: "monde",
    good: "bon",
    morning: "matin",
    thank: "merci",
    you: "vous",
    cat: "chat",
    dog: "chien",
    the: "le",
    and: "et",
    is: "est",
  },
  de: {
    hello: "hallo",
    world: "Welt",
    good: "gut",
    morning: "Morgen",
    thank: "danke",
    you: "du",
    cat: "Katze",
    dog: "Hund",
    the: "der",
    and: "und",
    is: "ist",
  },
};
const EMAIL_PATTERN = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/**
 * The `checksum` spell's digest of a row's inputs: SHA-256 (first 16 hex digits) of the JSON of
 * its [name, value] pairs sorted by name. Specs compute the same to check a row's outputs.
 *
 * @example
 * ```ts
 * checksumOf({ id: "1", text: "hi" }); // "…16 hex digits…"
 * ```
 */
export function checksumOf(inputs: Record<string, unknown>): string {
  const pairs = Object.entries(inputs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256").update(JSON.stringify(pairs)).digest("hex").slice(0, 16);
}

function success(outputs: Record<string, unknown>): SpellOutcome {
  return { state: "success", outputs };
}

// A missing or mistyped input makes the run end in `failure`, like a real spell would, rather
// than rejecting the request: bulk runs must not fail as a whole for one bad row.
function textInput(inputs: Record<string, unknown>, name: string): string | SpellOutcome {
  const value = inputs[name];
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return { state: "failure", outputs: { reason: `Input "${name}" must be text` } };
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word.length > 0);
}

/**
 * The demo behaviours, keyed by the `behaviour` field of a spell in spells.json.
 *
 * @example
 * ```ts
 * SPELL_BEHAVIOURS.sentiment.run({ text: "I love it" }, ["text"]).outputs; // { label: "positive", score: 1 }
 * ```
 */
export const SPELL_BEHAVIOURS: Readonly<Record<string, SpellBehaviour>> = {
  summarize: {
    run(inputs) {
      const text = textInput(inputs, "text");
      if (typeof text !== "string") return text;
      const all = words(text);
      const firstSentence = /^[^.!?]*[.!?]/.exec(text.trim())?.[0];
      const summary =
        firstSentence && words(firstSentence).length <= 25
          ? firstSentence
          : all.slice(0, 12).join(" ") + (all.length > 12 ? "…" : "");
      return success({ summary, words: all.length });
    },
  },
  sentiment: {
    run(inputs) {
      const text = textInput(inputs, "text");
      if (typeof text !== "string") return text;
      const tokens = words(text.toLowerCase().replace(/[^a-z\s]/g, " "));
      const positive = tokens.filter((token) => POSITIVE_WORDS.has(token)).length;
      const negative = tokens.filter((token) => NEGATIVE_WORDS.has(token)).length;
      const total = positive + negative;
      const score = total === 0 ? 0 : Math.round(((positive - negative) / total) * 100) / 100;
      const label = score > 0 ? "positive" : score < 0 ? "negative" : "neutral";
      return success({ label, score });
    },
  },
  "extract-emails": {
    run(inputs) {
      const text = textInput(inputs, "text");
      if (typeof text !== "string") return text;
      const emails = [...new Set(text.match(EMAIL_PATTERN) ?? [])];
      return success({ emails, count: emails.length });
    },
  },
  translate: {
    run(inputs) {
      const text = textInput(inputs, "text");
      if (typeof text !== "string") return text;
      const language = textInput(inputs, "language");
      if (typeof language !== "string") return language;
      const dictionary = DICTIONARIES[language.toLowerCase()];
      if (!dictionary) {
        return {
          state: "failure",
          outputs: { reason: `Unsupported language "${language}" (try es, fr or de)` },
        };
      }
      const translation = text.replace(/[A-Za-z]+/g, (word) => {
        const translated = dictionary[word.toLowerCase()];
        if (!translated) return word;
        return word[0] === word[0].toUpperCase()
          ? translated[0].toUpperCase() + translated.slice(1)
          : translated;
      });
      return success({ translation, language: language.toLowerCase() });
    },
  },
  echo: {
    run(inputs) {
      return success({ ...inputs });
    },
  },
  sleep: {
    run(inputs) {
      const ms = Number(inputs.ms);
      if (!Number.isFinite(ms) || ms < 0) {
        return { state: "failure", outputs: { reason: 'Input "ms" must be a number ≥ 0' } };
      }
      return success({ slept: ms });
    },
    durationMs(inputs) {
      const ms = Number(inputs.ms);
      return Number.isFinite(ms) && ms >= 0 ? ms : 0;
    },
  },
  checksum: {
    run(inputs) {
      // Every input counts, by name and value, so a row's outputs prove which inputs it was sent.
      const values = Object.values(inputs);
      if (values.some((value) => typeof value === "string" && value.includes("!fail"))) {
        return { state: "failure", outputs: { reason: 'An input holds "!fail"' } };
      }
      return success({
        digest: checksumOf(inputs),
        sample: typeof inputs.text === "string" ? inputs.text : "",
      });
    },
  },
  "always-fails": {
    run() {
      return { state: "failure", outputs: { reason: "This demo spell always fails" } };
    },
  },
  "always-errors": {
    run() {
      return { state: "error", outputs: { error: "This demo spell always ends in an error" } };
    },
  },
};
