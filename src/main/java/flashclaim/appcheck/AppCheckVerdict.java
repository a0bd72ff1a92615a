package flashclaim.appcheck;

/** What the check of one App Check token found. */
public sealed interface AppCheckVerdict {

  /** The request carried no token. */
  record Missing() implements AppCheckVerdict {}

  /**
   * The token is not a valid App Check token of this project: malformed, unsigned, signed with
   * another algorithm or an unknown key, expired, or issued for another project.
   *
   * @param reason why, for logs (never shown to the caller)
   */
  record Invalid(String reason) implements AppCheckVerdict {}

  /**
   * A valid token.
   *
   * @param appId the Firebase app that obtained it (the token's subject)
   */
  record Valid(String appId) implements AppCheckVerdict {}
}
