package flashclaim.store.postgres;

/**
 * A PostgreSQL that the service started itself, when no URL is configured ({@link
 * PostgresConfig#wantsEmbedded()}). A development tool: the development build provides it, the
 * container image does not.
 */
public interface EmbeddedDatabase {
  /** The JDBC URL of its database. */
  String jdbcUrl();
}
