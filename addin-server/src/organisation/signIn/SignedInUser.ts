/**
 * Who made a request, as the verified token (and the groups file) say.
 *
 * ## Example
 * ```ts
 * const user: SignedInUser = { id: "oid-1", name: "alice@contoso.com", groups: ["finance"] };
 * ```
 */
export interface SignedInUser {
  /** The token's object id (`oid`), else its subject: stable across renames. */
  id: string;
  /** The sign-in name (`preferred_username`, `upn`, `email`), else the id: what people read. */
  name: string;
  /** Group ids from the token's `groups` claim plus the groups file's names for this user. */
  groups: readonly string[];
}
