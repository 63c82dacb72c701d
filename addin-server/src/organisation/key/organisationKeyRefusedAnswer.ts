/** The gateway's JSON answer when the service refused the organisation's key. */
export interface OrganisationKeyRefusedAnswer {
  statusCode: 502;
  error: "Bad Gateway";
  code: "organisation_key_refused";
  message: string;
}

/**
 * The answer for the browser when the service refused the organisation's key, or undefined when
 * the service's status is not about the key. A 401 from the service can only mean the key (the
 * server sent it, the user's token never reaches the service), so the user must not be told to
 * sign in again: a 502 with a code the add-in shows as it is. A 403 is passed on as it is (the
 * API doc shows no way to tell a refused key from a refused call).
 *
 * ## Example
 * ```ts
 * const refused = organisationKeyRefusedAnswer(answer.statusCode);
 * if (refused) return reply.code(refused.statusCode).send(refused);
 * ```
 *
 * @param serviceStatus The service's answer status.
 * @return The answer to send in place of the service's, or undefined.
 */
export function organisationKeyRefusedAnswer(
  serviceStatus: number
): OrganisationKeyRefusedAnswer | undefined {
  if (serviceStatus !== 401) return undefined;
  return {
    statusCode: 502,
    error: "Bad Gateway",
    code: "organisation_key_refused",
    message: "Your organisation's Spell key was refused by the service; tell your administrator.",
  };
}
