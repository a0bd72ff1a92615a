package flashclaim.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.flyway.FlywayConfigurationProperties;
import io.micronaut.flyway.FlywayMigrator;
import jakarta.inject.Named;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the pooled DataSource (HikariCP) of the PostgreSQL store: against {@code
 * flashclaim.postgres.url}, or against an embedded PostgreSQL the service starts when no URL is
 * set (the development build only; without one, no URL stops the service from starting). Micronaut's Flyway integration migrates the schema with the settings of {@code
 * flyway.datasources.default} as soon as the pool is created, before any store uses it. With {@code flashclaim.store=firestore} (the default) none of this exists: no
 * DataSource, no Flyway run, no PostgreSQL.
 */
@Factory
@Requires(property = "flashclaim.store", value = "postgres")
final class PostgresFactory {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresFactory.class);

  @Context
  @Named("default")
  @Bean(preDestroy = "close")
  HikariDataSource dataSource(
      PostgresConfig config,
      Optional<EmbeddedDatabase> embedded,
      @Named("default") FlywayConfigurationProperties migrations,
      FlywayMigrator migrator) {
    checkSettings(config);
    if (config.wantsEmbedded() && embedded.isEmpty()) {
      throw new ConfigurationException(
          "flashclaim.postgres.url is not set and this build has no embedded PostgreSQL (a"
              + " development tool)");
    }
    HikariConfig hikari =
        poolConfig(config, embedded.map(EmbeddedDatabase::jdbcUrl).orElse(config.url()));
    hikari.setPoolName("flashclaim-postgres");
    HikariDataSource dataSource = new HikariDataSource(hikari);
    LOG.info("PostgreSQL: pool of {} connections to {}", config.poolSize(), hikari.getJdbcUrl());
    try {
      migrator.run(migrations, dataSource);
    } catch (RuntimeException e) {
      dataSource.close();
      throw e;
    }
    return dataSource;
  }

  /**
   * The settings of a pool on {@code jdbcUrl}: its size and timeouts from {@code config}, every
   * statement and every socket bounded (G6). The service's pool, and the store clients of the tests
   * that run the adapters without a service.
   */
  static HikariConfig poolConfig(PostgresConfig config, String jdbcUrl) {
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(jdbcUrl);
    hikari.setUsername(config.user());
    if (!config.password().isEmpty()) {
      hikari.setPassword(config.password());
    }
    hikari.setMaximumPoolSize(config.poolSize());
    hikari.setMinimumIdle(Math.min(4, config.poolSize()));
    long connectionTimeout = Math.max(250, config.connectionTimeout().toMillis());
    hikari.setConnectionTimeout(connectionTimeout);
    // Checking an idle connection before handing it out leaves time to open another in time.
    hikari.setValidationTimeout(Math.max(250, connectionTimeout / 2));
    // Every statement of every connection is bounded (G6); the claim also bounds its lock waits.
    hikari.addDataSourceProperty(
        "options", "-c statement_timeout=" + config.callTimeout().toMillis());
    hikari.addDataSourceProperty("connectTimeout", "10");
    // A connection that stops answering is closed rather than waited for (G6).
    hikari.addDataSourceProperty(
        "socketTimeout", String.valueOf(wholeSeconds(config.effectiveSocketTimeout())));
    hikari.addDataSourceProperty(
        "cancelSignalTimeout", String.valueOf(wholeSeconds(config.cancelGrace())));
    hikari.addDataSourceProperty("tcpKeepAlive", "true");
    return hikari;
  }

  /**
   * Refuses timeouts that contradict each other: a socket timeout at or below the statement timeout
   * would close connections whose statements are slow but alive, and report a cancelled statement
   * as a lost connection. Refuses claim batches or claim calls below one.
   */
  static void checkSettings(PostgresConfig config) {
    if (config.callTimeout().isNegative() || config.callTimeout().isZero()) {
      throw new ConfigurationException("flashclaim.postgres.call-timeout must be positive");
    }
    if (wholeSeconds(config.effectiveSocketTimeout()) * 1_000 <= config.callTimeout().toMillis()) {
      throw new ConfigurationException(
          "flashclaim.postgres.socket-timeout ("
              + config.effectiveSocketTimeout()
              + ") must be longer than flashclaim.postgres.call-timeout ("
              + config.callTimeout()
              + ")");
    }
    if (config.cancelGrace().isNegative()) {
      throw new ConfigurationException("flashclaim.postgres.cancel-grace must not be negative");
    }
    if (config.claimBatchSize() < 1 || config.claimCalls() < 1) {
      throw new ConfigurationException(
          "flashclaim.postgres.claim-batch-size and claim-calls must be at least 1");
    }
  }

  /** pgjdbc takes these timeouts in whole seconds; 0 would mean none, so at least 1. */
  private static long wholeSeconds(Duration timeout) {
    return Math.max(1, (timeout.toMillis() + 999) / 1_000);
  }
}
