package flashclaim.store.postgres;

import io.micronaut.context.condition.Condition;
import io.micronaut.context.condition.ConditionContext;

/** True when the configuration names no PostgreSQL URL, so the service starts its own. */
public final class EmbeddedPostgresCondition implements Condition {
  @Override
  public boolean matches(ConditionContext context) {
    return context.getBeanContext().getBean(PostgresConfig.class).wantsEmbedded();
  }
}
