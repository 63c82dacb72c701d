/**
 * The invocation object Excel passes as a custom function's last argument, as Microsoft documents
 * it: `functionName`, `address` (the calling cell), `parameterAddresses`, `isInValuePreview`
 * (true while the formula is being typed: the value preview), `setResult` for a streaming
 * function; the function sets `onCanceled`, which Excel calls when it gives the call up.
 * The playground's runtime and the functions' specs both build their invocations here.
 */

/** An invocation as built here (the function adds `onCanceled`). */
export interface PlaygroundInvocation {
  functionName: string;
  address?: string;
  parameterAddresses: string[];
  /** The runtime passes a boolean; the typings (`CustomFunctions.Invocation`) say string. */
  isInValuePreview: boolean;
  setResult?: (value: unknown) => void;
  onCanceled?: () => void;
}

/**
 * Builds an invocation.
 *
 * ## Example
 * ```ts
 * const invocation = createInvocation({ functionName: "SPELL.BULK", address: "Sheet1!D1", setResult: show });
 * spellBulk("summarize", table, null, invocation as unknown as CustomFunctions.StreamingInvocation<unknown[][]>);
 * ```
 *
 * @param options The function's full name, the calling cell, whether this is the value preview,
 *   and (streaming functions only) where `setResult` goes.
 * @return The invocation.
 */
export function createInvocation(options: {
  functionName: string;
  address?: string;
  preview?: boolean;
  setResult?: (value: unknown) => void;
}): PlaygroundInvocation {
  const invocation: PlaygroundInvocation = {
    functionName: options.functionName.toUpperCase(),
    parameterAddresses: [],
    isInValuePreview: options.preview ?? false,
  };
  if (options.address !== undefined) invocation.address = options.address;
  if (options.setResult) invocation.setResult = options.setResult;
  return invocation;
}
