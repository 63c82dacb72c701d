/**
 * Reads a groups file: JSON `{ "<sign-in name or object id>": ["<group>", …] }`, for
 * organisations whose tokens carry no `groups` claim. Names are matched without case.
 *
 * ## Example
 * ```ts
 * parseGroupsFile('{"Alice@contoso.com": ["finance"]}', "groups.json").get("alice@contoso.com"); // ["finance"]
 * ```
 *
 * @param text The file's text.
 * @param source The file's name, for errors.
 * @return Groups by lower-cased user name or id.
 */
export function parseGroupsFile(text: string, source: string): Map<string, readonly string[]> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${source}: groups must be an object of user → list of groups.`);
  }
  const groups = new Map<string, readonly string[]>();
  for (const [user, list] of Object.entries(value)) {
    if (!Array.isArray(list) || !list.every((group) => typeof group === "string")) {
      throw new Error(`${source}: the groups of ${user} must be a list of strings.`);
    }
    groups.set(user.toLowerCase(), list as string[]);
  }
  return groups;
}
