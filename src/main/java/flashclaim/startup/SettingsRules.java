package flashclaim.startup;

import io.micronaut.context.BeanContext;
import io.micronaut.context.annotation.ConfigurationReader;
import io.micronaut.context.annotation.Context;
import io.micronaut.inject.BeanDefinition;
import io.micronaut.inject.qualifiers.Qualifiers;
import java.util.Comparator;
import java.util.List;

/**
 * Refuses to start when a {@code flashclaim.*} setting breaks a rule of its configuration record
 * (a page of no records, an interval out of its range): builds every such record of the service
 * at startup, so that its constructor's rules run then. Without it a record is built when the
 * first bean that needs it is, which for some is the first claim of a sold-out pool or of a
 * paused campaign: that claim, and every one after it, would fail instead of the start.
 */
@Context
final class SettingsRules {
  SettingsRules(BeanContext context) {
    List<BeanDefinition<?>> records =
        context.getBeanDefinitions(Qualifiers.byStereotype(ConfigurationReader.class)).stream()
            .filter(definition -> definition.getBeanType().getName().startsWith("flashclaim."))
            .<BeanDefinition<?>>map(definition -> definition)
            .sorted(Comparator.comparing(definition -> definition.getBeanType().getName()))
            .toList();
    for (BeanDefinition<?> record : records) { // in name order, so the first broken rule is stable
      context.getBean(record); // a broken rule throws, and the start fails with its message
    }
  }
}
