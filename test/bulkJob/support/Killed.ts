/** The process died: nothing more reaches the store, the writer or the service. */
export class Killed extends Error {
  constructor() {
    super("killed");
  }
}
