/**
 * The Excel error a synchronous call throws (its code and message), or `undefined` when it does
 * not throw.
 *
 * @example
 * expect(thrown(() => parseInputs(42))?.code).toBe("#VALUE!");
 */
export function thrown(call: () => unknown): { code: string; message: string } | undefined {
  try {
    call();
  } catch (error) {
    return error as { code: string; message: string };
  }
  return undefined;
}
