/**
 * A custom-functions runtime for pages without Excel, written from Microsoft's documented
 * semantics of the `CustomFunctions` namespace (shared runtime):
 * - `CustomFunctions.associate(id, fn)` (or a map of ids) registers what a bundle declares; the
 *   ids and parameter shapes come from functions.json, as Excel reads them;
 * - a call passes one argument per declared parameter (a matrix parameter gets a 2-D array even
 *   for one cell; an omitted optional argument is `null`), then the invocation last;
 * - the invocation carries `address` (the calling cell), `functionName` and `isInValuePreview`;
 *   a streaming function gets `setResult`, a cancelable or streaming one gets its `onCanceled`
 *   called when the call is given up (formula edited or deleted, an argument changed);
 * - a returned promise or each `setResult` becomes the cell's value; a thrown or rejected
 *   `CustomFunctions.Error` shows its code.
 */
import { Observable } from "rxjs";
import { createInvocation } from "./createInvocation.js";

/** One function of functions.json (the fields the runtime uses). */
export interface CustomFunctionMetadata {
  id: string;
  name: string;
  options?: { stream?: boolean; cancelable?: boolean; requiresAddress?: boolean };
  parameters: {
    name: string;
    /** "any" when not given, as in functions.json. */
    type?: string;
    dimensionality?: string;
    optional?: boolean;
    repeating?: boolean;
  }[];
}

/** What a call of a custom function puts in its cell, over time. */
export type CustomFunctionResult = unknown;

/** Excel's error values a custom function may return (`CustomFunctions.ErrorCode`). */
export const ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
  busy: "#BUSY!",
  connect: "#CONNECT!",
  gettingData: "#GETTING_DATA",
} as const;

/**
 * `CustomFunctions.Error`: an error value with a code and an optional message (Excel shows the
 * message in the cell's error tooltip).
 *
 * ## Example
 * ```ts
 * throw new CustomFunctionError("#N/A", "Still running");
 * ```
 */
export class CustomFunctionError extends Error {
  override name = "CustomFunctions.Error";
  constructor(
    readonly code: string,
    message?: string
  ) {
    super(message ?? code);
  }
}

/**
 * The runtime: holds what was associated and calls it as Excel would.
 *
 * ## Example
 * ```ts
 * const runtime = new CustomFunctionsRuntime(metadata.functions, "SPELL");
 * runtime.install();                       // CustomFunctions.associate now registers here
 * runtime.call("SPELL.RUN", [["summarize"], [["hello"]]], "Sheet1!B2").subscribe(show);
 * ```
 */
export class CustomFunctionsRuntime {
  private readonly implementations = new Map<string, (...args: unknown[]) => unknown>();
  private readonly byName = new Map<string, CustomFunctionMetadata>();
  private unanswered = 0;

  /**
   * @param metadata The functions of functions.json.
   * @param namespace The manifest's namespace (`SPELL`): `SPELL.RUN` calls the function `RUN`.
   * @param allowErrorForDataTypeAny functions.json's option: parameters of type `any` receive
   *   error values (by default a formula whose argument is an error gives it without a call).
   */
  constructor(
    metadata: readonly CustomFunctionMetadata[],
    readonly namespace: string,
    readonly allowErrorForDataTypeAny = false
  ) {
    for (const entry of metadata)
      this.byName.set(`${namespace}.${entry.name}`.toUpperCase(), entry);
  }

  /** `CustomFunctions.associate(id, fn)` or `associate({ id: fn, ... })`. */
  associate(
    idOrMappings: string | Record<string, (...args: unknown[]) => unknown>,
    implementation?: (...args: unknown[]) => unknown
  ): void {
    const mappings =
      typeof idOrMappings === "string" ? { [idOrMappings]: implementation } : idOrMappings;
    for (const [id, fn] of Object.entries(mappings)) {
      if (typeof fn !== "function") throw new Error(`associate(${id}): not a function`);
      this.implementations.set(id.toUpperCase(), fn);
    }
  }

  /**
   * Calls made that gave no value yet (their cells show `#BUSY!`), wherever they are in the
   * workbook: the page asks before it is left while some are going.
   */
  callsUnanswered(): number {
    return this.unanswered;
  }

  /** The full names (`SPELL.RUN`, ...) that have an implementation. */
  functionNames(): string[] {
    return [...this.byName.entries()]
      .filter(([, entry]) => this.implementations.has(entry.id.toUpperCase()))
      .map(([name]) => name);
  }

  /** The metadata of a full name (`SPELL.RUN`), undefined when not declared. */
  metadataOf(fullName: string): CustomFunctionMetadata | undefined {
    return this.byName.get(fullName.toUpperCase());
  }

  /**
   * Puts `CustomFunctions` (associate, Error, ErrorCode) on `target`, as the shared runtime does
   * before it loads functions.js; returns a function that undoes it.
   */
  install(
    target: Record<string, unknown> = globalThis as unknown as Record<string, unknown>
  ): () => void {
    const before = target.CustomFunctions;
    target.CustomFunctions = {
      associate: this.associate.bind(this),
      Error: CustomFunctionError,
      ErrorCode: ERROR_CODES,
    };
    return () => {
      target.CustomFunctions = before;
    };
  }

  /**
   * Calls a function for a cell. The Observable emits each value the cell shows (one for a
   * returned promise, every `setResult` of a streaming function) and completes when the call
   * is done; errors arrive as `CustomFunctionError` values, never as `error`, since a cell shows
   * them. Unsubscribing before the end cancels the call (its `onCanceled`), as Excel does when
   * the formula is edited or an argument changes.
   *
   * @param fullName `SPELL.RUN`.
   * @param args The arguments as the formula gave them, one per parameter; `undefined` = omitted.
   * @param address The calling cell, `Sheet1!B2`.
   * @param options `preview`: the call is the formula value preview (`isInValuePreview`).
   */
  call(
    fullName: string,
    args: readonly unknown[],
    address: string,
    options: { preview?: boolean } = {}
  ): Observable<CustomFunctionResult> {
    return new Observable<CustomFunctionResult>((subscriber) => {
      const metadata = this.metadataOf(fullName);
      const implementation = metadata && this.implementations.get(metadata.id.toUpperCase());
      if (!metadata || !implementation) {
        subscriber.next(new CustomFunctionError("#NAME?", `${fullName} is not defined`));
        subscriber.complete();
        return undefined;
      }
      let done = false;
      // Counted until the call's first value (or its cancel).
      let answered = false;
      this.unanswered++;
      const answer = () => {
        if (answered) return;
        answered = true;
        this.unanswered--;
      };
      const invocation = createInvocation({
        functionName: fullName,
        address,
        preview: options.preview,
        setResult: metadata.options?.stream
          ? (value) => {
              if (done) return;
              answer();
              subscriber.next(value);
            }
          : undefined,
      });
      const settle = (value: unknown) => {
        if (done) return;
        done = true;
        answer();
        subscriber.next(value);
        subscriber.complete();
      };
      try {
        const result = implementation(...shapeArguments(metadata, args), invocation);
        if (!metadata.options?.stream) {
          Promise.resolve(result).then(settle, (error: unknown) => settle(asCellError(error)));
        }
      } catch (error) {
        settle(asCellError(error));
      }
      return () => {
        answer();
        // Excel calls onCanceled only for a call still going (a streaming one always is).
        if (!done) {
          done = true;
          invocation.onCanceled?.();
        }
      };
    });
  }
}

/**
 * The arguments as Excel passes them: one per declared parameter, a matrix parameter as a 2-D
 * array, an omitted optional one as `null`; a repeating parameter gets the rest as an array.
 */
function shapeArguments(metadata: CustomFunctionMetadata, args: readonly unknown[]): unknown[] {
  return metadata.parameters.map((parameter, index) => {
    if (parameter.repeating) {
      return args.slice(index).map((arg) => shapeOne(parameter.dimensionality, arg));
    }
    return shapeOne(parameter.dimensionality, args[index]);
  });
}

function shapeOne(dimensionality: string | undefined, arg: unknown): unknown {
  if (arg === undefined) return null;
  if (dimensionality === "matrix") return Array.isArray(arg) ? arg : [[arg]];
  return Array.isArray(arg) ? arg[0]?.[0] : arg;
}

function asCellError(error: unknown): CustomFunctionError {
  if (error instanceof CustomFunctionError) return error;
  const shaped = error as { code?: unknown; message?: unknown } | undefined;
  if (shaped && typeof shaped.code === "string" && shaped.code.startsWith("#")) {
    return new CustomFunctionError(shaped.code, String(shaped.message ?? shaped.code));
  }
  return new CustomFunctionError("#VALUE!", error instanceof Error ? error.message : String(error));
}
