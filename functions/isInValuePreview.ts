/**
 * Whether Excel called the function for the formula value preview (the value shown while the
 * user is still typing). Read defensively: the typings declare `isInValuePreview` as a string,
 * hosts pass a boolean, and hosts before CustomFunctionsRuntime 1.5 pass nothing.
 *
 * ## Example
 * ```ts
 * if (isInValuePreview(invocation)) return [[RUN_PREVIEW_TEXT]];
 * ```
 *
 * @param invocation The invocation Excel passed (may be missing).
 * @return True only when Excel says this is a preview.
 */
export function isInValuePreview(invocation: CustomFunctions.Invocation | undefined): boolean {
  const flag: unknown = (invocation as { isInValuePreview?: unknown } | undefined)
    ?.isInValuePreview;
  return flag === true || flag === "true";
}
