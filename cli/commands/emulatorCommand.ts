import { existsSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors/UsageError.js";

/** What `spellrun emulator` needs of the emulator package. */
interface EmulatorModule {
  runEmulatorCli(flags: string[], env: NodeJS.ProcessEnv): Promise<void>;
}

/**
 * The message when the emulator is not installed, which is the case wherever the library was
 * installed from the registry: the emulator is a workspace package of the repository (it needs a
 * web server, fastify) and is left out of the library so that nobody who only wants the client
 * installs one.
 */
export const EMULATOR_NOT_INSTALLED =
  "the emulator is not part of this installation: it is a separate package of the spellrun " +
  "repository (it needs a web server). From a clone of the repository: npm install && npm run emulator";

/**
 * `spellrun emulator [flags...]`: loads the emulator only when the command is used, from the
 * repository's build or sources, and says plainly what to do when it is not there.
 *
 * ## Example
 * ```ts
 * await emulatorCommand(["--time-scale", "0.1"], process.env);
 * ```
 * @param flags the emulator's own flags
 * @param env the environment
 * @param load how to load the emulator (specs pass one that fails)
 */
export async function emulatorCommand(
  flags: string[],
  env: NodeJS.ProcessEnv,
  load: () => Promise<EmulatorModule> = () => import("../../emulator/runEmulatorCli.js")
): Promise<void> {
  let emulator: EmulatorModule;
  try {
    emulator = await load();
  } catch (error) {
    // Missing: the emulator's files (left out of the package) or its web server (fastify).
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new UsageError(EMULATOR_NOT_INSTALLED);
    }
    throw error;
  }
  await emulator.runEmulatorCli(flags, env);
}

/**
 * Whether this installation has the emulator: its loader beside the command's own files (the
 * build's `dist/emulator/runEmulatorCli.js`, or the sources' `emulator/runEmulatorCli.ts` in a
 * clone). An installed package has neither, and its `--help` then offers no emulator.
 *
 * ## Example
 * ```ts
 * emulatorIsInstalled(fileURLToPath(import.meta.url)); // false in an installed package
 * ```
 * @param mainFile the command's main file (`cli/main.ts`, or `dist/cli/main.js`)
 * @return true when `spellrun emulator` can load the emulator's files
 */
export function emulatorIsInstalled(mainFile: string): boolean {
  const folder = path.join(path.dirname(mainFile), "..", "emulator");
  return ["runEmulatorCli.js", "runEmulatorCli.ts"].some((file) =>
    existsSync(path.join(folder, file))
  );
}
