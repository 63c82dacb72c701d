import { WatchedFile } from "../WatchedFile";

/**
 * Where the organisation's Spell key comes from: a file (re-read when it changes or on SIGHUP,
 * so the key can be rotated without a restart) or an environment variable (fixed for the
 * process's life).
 *
 * ## Example
 * ```ts
 * const source: SpellKeySource = { file: "/run/secrets/spell-key" };
 * ```
 */
export type SpellKeySource = { file: string } | { environment: string };

/** The key as the server reads it when forwarding: `current()`, `reload()`, `close()`. */
export interface SpellKey {
  current(): string;
  reload(): void;
  close(): void;
}

/**
 * Opens the organisation's key, checked as the core checks a key (one line of printable ASCII;
 * a file's final newline is dropped). Errors never repeat the key.
 *
 * ## Example
 * ```ts
 * const key = openSpellKey({ environment: "SPELLRUN_ORG_SPELL_KEY" }, process.env, log);
 * headers.authorization = `Bearer ${key.current()}`;
 * ```
 *
 * @param source The file or variable.
 * @param env The environment.
 * @param onError Told when a changed key file is refused (the last good key stays).
 * @return The key.
 */
export function openSpellKey(
  source: SpellKeySource,
  env: NodeJS.ProcessEnv,
  onError: (error: Error) => void
): SpellKey {
  if ("environment" in source) {
    const key = checkedKey(env[source.environment] ?? "", `$${source.environment}`);
    return { current: () => key, reload: () => undefined, close: () => undefined };
  }
  const watched = new WatchedFile(source.file, (text) => checkedKey(text, source.file), onError);
  return {
    current: () => watched.current,
    reload: () => watched.reload(),
    close: () => watched.close(),
  };
}

function checkedKey(text: string, where: string): string {
  const key = text.replace(/\r?\n$/, "");
  if (key === "") throw new Error(`${where} holds no Spell key.`);
  if (!/^[\u0021-\u007e]+$/.test(key)) {
    throw new Error(
      `${where}: the Spell key must be one line of printable ASCII (no spaces or line breaks).`
    );
  }
  return key;
}
