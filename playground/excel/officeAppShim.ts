/**
 * Stand-in for `office-addin-manifest` in browser bundles: `office-addin-mock` imports it only
 * for the `OfficeApp` enum, but the real package pulls in Node's `fs` and `path`, which webpack
 * cannot bundle for Chromium. scripts/browserBuild.cjs aliases the package to this file (specs, screenshots, the playground page).
 */
export enum OfficeApp {
  Excel = "excel",
  OneNote = "onenote",
  Outlook = "outlook",
  PowerPoint = "powerpoint",
  Project = "project",
  Word = "word",
}
