/**
 * The playground's own error banner: an error nobody caught (a script's `error` event, a
 * promise's `unhandledrejection`) is shown at the top of the page as plain text, with a button to
 * dismiss it, instead of the dev server's full-screen overlay (turned off for this page in
 * webpack.config.js) or nothing at all (the static build). The page keeps working under it.
 */

/** Why something failed, as one line of text (never markup). */
function describe(reason: unknown): string {
  if (reason instanceof Error) return reason.message || reason.name;
  return typeof reason === "string" ? reason : (JSON.stringify(reason) ?? String(reason));
}

/**
 * Shows an error in the banner (the newest first, at most five).
 *
 * @example
 * ```ts
 * showPageError(banner, new Error("could not load functions.js"));
 * ```
 */
export function showPageError(banner: HTMLElement, reason: unknown): void {
  const item = document.createElement("li");
  item.textContent = describe(reason);
  let list = banner.querySelector("ul");
  if (!list) {
    const title = document.createElement("strong");
    title.textContent = "Something went wrong in the playground: ";
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.textContent = "Dismiss";
    dismiss.addEventListener("click", () => {
      banner.hidden = true;
      banner.replaceChildren();
    });
    list = document.createElement("ul");
    banner.replaceChildren(title, dismiss, list);
  }
  list.prepend(item);
  while (list.children.length > 5) list.lastElementChild?.remove();
  banner.hidden = false;
}

/**
 * Shows every uncaught error of the page in `banner`; returns a function that stops.
 *
 * @example
 * ```ts
 * showPageErrors(document.getElementById("playground-errors")!);
 * ```
 */
export function showPageErrors(banner: HTMLElement): () => void {
  const onError = (event: ErrorEvent) => showPageError(banner, event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => showPageError(banner, event.reason);
  window.addEventListener("error", onError);
  window.addEventListener("unhandledrejection", onRejection);
  return () => {
    window.removeEventListener("error", onError);
    window.removeEventListener("unhandledrejection", onRejection);
  };
}
