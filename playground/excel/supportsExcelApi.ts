/** Requirement-set checks of the modelled host. */

/** True when the modelled host has the ExcelApi requirement set `version`. */
export function supportsExcelApi(excelApiVersion: string | undefined, version: string): boolean {
  if (excelApiVersion === undefined) return true;
  const [major, minor] = version.split(".").map(Number);
  const [hasMajor, hasMinor] = excelApiVersion.split(".").map(Number);
  return hasMajor > major || (hasMajor === major && (hasMinor ?? 0) >= (minor ?? 0));
}
