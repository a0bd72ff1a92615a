package flashclaim.store.firestore;

import io.micronaut.context.BeanContext;
import io.micronaut.context.condition.Condition;
import io.micronaut.context.condition.ConditionContext;

/** True when {@link FirestoreConfig#wantsEmbeddedEmulator()}. */
public final class EmbeddedEmulatorCondition implements Condition {
  @Override
  public boolean matches(ConditionContext context) {
    BeanContext beans = context.getBeanContext();
    return beans.getBean(FirestoreConfig.class).wantsEmbeddedEmulator();
  }
}
