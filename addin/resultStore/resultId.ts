import { hashText } from "../hashText.js";

/**
 * The storage id of a reuse key (which holds whole inputs and may be long): its `hashText` in
 * base 36. A collision only costs a reuse: the stored full key is checked.
 *
 * @internal
 * @param key the core's reuse key
 * @return the id its entry is stored under
 */
export function resultId(key: string): string {
  return hashText(key).toString(36);
}
