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
