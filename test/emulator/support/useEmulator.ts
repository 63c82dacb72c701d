import { startEmulator } from "../../../emulator/startEmulator.js";
import type { EmulatorOptions, RunningEmulator } from "../../../emulator/startEmulator.js";
import { spellApi } from "./emulatorHttp.js";

/** An emulator for one `describe`, and the spell endpoints called with its key. */
export interface EmulatorFixture {
  emulator: RunningEmulator;
  spell: ReturnType<typeof spellApi>;
}

/**
 * Starts an emulator before the suite's specs and closes it after them. Call it in a `describe`;
 * read `fixture.emulator` and `fixture.spell` inside specs (they exist once `beforeAll` ran).
 *
 * ## Example
 * ```ts
 * const fixture = useEmulator();
 * it("should start", async () => expect((await fixture.spell.start("echo", {}, false)).status).toBe(200));
 * ```
 * @param options emulator options; runs are scaled to 2 % of their duration by default
 * @return the fixture, filled in by `beforeAll`
 */
export function useEmulator(options: EmulatorOptions = { timeScale: 0.02 }): EmulatorFixture {
  const fixture = {} as EmulatorFixture;
  beforeAll(async () => {
    fixture.emulator = await startEmulator(options);
    fixture.spell = spellApi(fixture.emulator);
  });
  afterAll(() => fixture.emulator.close());
  return fixture;
}
