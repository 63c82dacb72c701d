/**
 * Office's error shape (`OfficeExtension.Error`): a `code` such as `ItemNotFound` or
 * `RequestPayloadSizeLimitExceeded`.
 */
export class MockOfficeError extends Error {
  override name = "RichApi.Error";
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message);
  }
}

/**
 * What Office.js answers (code `InvalidArgument`) to an address it cannot take, such as
 * `getRange("XFE1")` or a `getCell` past the sheet's last row or column, at the next sync.
 */
export const INVALID_ARGUMENT_MESSAGE =
  "The argument is invalid or missing or has an incorrect format.";
