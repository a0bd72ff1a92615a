package flashclaim.store.postgres;

import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts an embedded PostgreSQL when no URL is configured; stopped at shutdown, after the pool. */
@Factory
@Requires(property = "flashclaim.store", value = "postgres")
final class EmbeddedPostgresFactory {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresFactory.class);

  @Singleton
  @Bean(preDestroy = "close")
  @Requires(condition = EmbeddedPostgresCondition.class)
  EmbeddedPostgresServer embeddedPostgres(PostgresConfig config) {
    EmbeddedPostgresServer server =
        EmbeddedPostgresServer.start(config.embeddedPort(), config.embeddedStartTimeout());
    LOG.info("PostgreSQL: embedded server started at {}", server.jdbcUrl());
    return server;
  }
}
