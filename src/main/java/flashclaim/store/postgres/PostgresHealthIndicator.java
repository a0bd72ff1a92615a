package flashclaim.store.postgres;

import io.micronaut.context.annotation.Requires;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;

/** Health: the database answers a query on a pooled connection within the call timeout. */
@Singleton
@Requires(bean = PostgresCalls.class)
final class PostgresHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {
  private final PostgresCalls db;

  PostgresHealthIndicator(PostgresCalls db) {
    this.db = db;
  }

  @Override
  protected Map<String, Object> getHealthInformation() {
    long started = System.nanoTime();
    String version =
        db.call(
            "answer a health probe",
            connection -> {
              try (PreparedStatement select = connection.prepareStatement("SHOW server_version");
                  ResultSet row = select.executeQuery()) {
                row.next();
                return row.getString(1);
              }
            });
    healthStatus = HealthStatus.UP;
    return Map.of(
        "serverVersion", version, "latencyMillis", (System.nanoTime() - started) / 1_000_000);
  }

  @Override
  protected String getName() {
    return "postgres";
  }
}
