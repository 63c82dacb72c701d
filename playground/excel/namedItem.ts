/** The mock's workbook-name proxy (`names.getItem` / `getItemOrNullObject`). */
import { OfficeMockObject } from "office-addin-mock";
import { blockAddress } from "./a1.js";
import { fillLoaded, loadList, quoteSheet } from "./mockRanges.js";
import { MockOfficeError } from "./MockOfficeError.js";
import { MOCK_ERRORS } from "./syncOperation.js";
import type { SyncOperation } from "./syncOperation.js";
import type { WorkbookState } from "./workbookState.js";

/**
 * `names.getItemOrNullObject(name)`: `isNullObject`, `getRange()` (whose `address` is loaded
 * at sync, where the name refers to then) and `delete()`.
 */
export function namedItem(
  state: WorkbookState,
  queue: SyncOperation[],
  name: string
): OfficeMockObject {
  const item = new OfficeMockObject({});
  const range = new OfficeMockObject({ address: undefined });
  const at = () => state.names.get(name);
  // As in Office, `isNullObject` is known after the next sync, without a load.
  let isNull: boolean | undefined;
  queue.push({
    kind: "lookup",
    target: item,
    fill: () => {
      isNull = !state.names.has(name);
    },
  });
  return new Proxy(item, {
    get: (object, property) => {
      if (property === "isNullObject") {
        if (isNull === undefined) throw new Error(`isNullObject of name ${name}: sync first`);
        return isNull;
      }
      if (property === "delete") {
        return () => queue.push({ kind: "name", name, target: undefined });
      }
      if (property === "getRange") {
        return () =>
          new Proxy(range, {
            get: (r, p, rr) => {
              if (p === "load") {
                return (argument: string | string[]) => {
                  r.load(loadList(argument));
                  queue.push({
                    kind: "lookup",
                    target: r,
                    fill: () => {
                      const target = at();
                      if (!target)
                        throw new MockOfficeError("InvalidReference", `${name} refers to #REF!`);
                      fillLoaded(
                        r,
                        "address",
                        `${quoteSheet(target.sheet)}!${blockAddress(target.block)}`
                      );
                    },
                  });
                  return rr;
                };
              }
              const value = Reflect.get(r, p, r);
              if (typeof value === "function") return value.bind(r);
              if (typeof value === "string" && MOCK_ERRORS.includes(value)) {
                throw new Error(`${String(p)} of name ${name}: ${value}`);
              }
              return value;
            },
          });
      }
      const value = Reflect.get(object, property, object);
      if (typeof value === "function") return value.bind(object);
      if (typeof value === "string" && MOCK_ERRORS.includes(value)) {
        throw new Error(`${String(property)} of name ${name}: ${value}`);
      }
      return value;
    },
  });
}
