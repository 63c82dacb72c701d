/**
 * Runs allowed in a day and in a month (UTC days and months); a missing field is no limit.
 *
 * ## Example
 * ```ts
 * const limit: RunLimit = { perDay: 200, perMonth: 3000 };
 * ```
 */
export interface RunLimit {
  perDay?: number;
  perMonth?: number;
}

/**
 * The organisation's budgets (the budgets file, JSON), read again when the file changes.
 *
 * ## Example
 * ```json
 * {
 *   "paused": false,
 *   "global": { "perDay": 20000, "perMonth": 300000 },
 *   "users": { "default": { "perDay": 500 }, "alice@contoso.com": { "perDay": 2000 } },
 *   "groups": { "finance": { "perDay": 5000, "perMonth": 60000 } }
 * }
 * ```
 */
export interface Budgets {
  /** The kill switch in the file: true refuses every start (the admin page has one too). */
  paused?: boolean;
  /** All users together. */
  global?: RunLimit;
  /** Per user: `default` for everyone, a user's sign-in name or object id for that user. */
  users?: Record<string, RunLimit>;
  /** Per group (a group id from the token, or a name from the groups file): the group's users together. */
  groups?: Record<string, RunLimit>;
}

/**
 * Reads a budgets file's text, or throws an Error naming what is wrong (the previous budgets
 * stay in force when a changed file is wrong).
 *
 * ## Example
 * ```ts
 * const budgets = parseBudgets(readFileSync(file, "utf8"), file);
 * ```
 *
 * @param text The file's text.
 * @param source The file's name, for the error.
 * @return The budgets.
 */
export function parseBudgets(text: string, source: string): Budgets {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new Error(`${source}: the budgets must be a JSON object.`);
  const budgets: Budgets = {};
  if (value.paused !== undefined) {
    if (typeof value.paused !== "boolean")
      throw new Error(`${source}: paused must be true or false.`);
    budgets.paused = value.paused;
  }
  if (value.global !== undefined) budgets.global = runLimit(value.global, `${source}: global`);
  for (const scope of ["users", "groups"] as const) {
    const entries = value[scope];
    if (entries === undefined) continue;
    if (!isObject(entries)) throw new Error(`${source}: ${scope} must be an object of limits.`);
    budgets[scope] = Object.fromEntries(
      Object.entries(entries).map(([name, limit]) => [
        name,
        runLimit(limit, `${source}: ${scope}.${name}`),
      ])
    );
  }
  return budgets;
}

function runLimit(value: unknown, where: string): RunLimit {
  if (!isObject(value)) throw new Error(`${where} must be an object like { "perDay": 100 }.`);
  const limit: RunLimit = {};
  for (const field of ["perDay", "perMonth"] as const) {
    const number = value[field];
    if (number === undefined) continue;
    if (typeof number !== "number" || !Number.isInteger(number) || number < 0) {
      throw new Error(`${where}.${field} must be a whole number of runs (0 or more).`);
    }
    limit[field] = number;
  }
  return limit;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
