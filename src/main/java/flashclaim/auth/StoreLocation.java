package flashclaim.auth;

/**
 * Where the data of this instance is, as the start-up checks need it (a port: each store adapter
 * says it from its own configuration, without connecting). Published development secrets are
 * accepted only where {@link #local} is true.
 */
public interface StoreLocation {

  /** The store, for a message that names it (e.g. "the Firestore emulator at host:port"). */
  String description();

  /** Whether no real data can be there: an emulator, or a database the instance started itself. */
  boolean local();
}
