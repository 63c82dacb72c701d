/**
 * The former name of `keyValueStorage` (it stores more than settings: remembered results, recent
 * spells). Kept only while branches written against the old name are merged; import
 * `keyValueStorage.js` instead.
 *
 * ## Example
 * ```ts
 * import { keyValueStorage } from "./keyValueStorage.js";
 * ```
 * @deprecated use `keyValueStorage`, `useKeyValueStorage`
 */
export {
  keyValueStorage as settingsStorage,
  useKeyValueStorage as useSettingsStorage,
  memoryStorage,
  type KeyValueStorage,
} from "./keyValueStorage.js";
