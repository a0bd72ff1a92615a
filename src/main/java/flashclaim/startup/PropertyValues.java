package flashclaim.startup;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.annotation.Order;
import io.micronaut.core.convert.format.ReadableBytes;
import io.micronaut.core.naming.NameUtils;
import io.micronaut.core.order.Ordered;
import io.micronaut.core.type.Argument;
import io.micronaut.core.value.PropertyResolver;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses to start, before anything else starts, when a {@code flashclaim.*} property is set to a
 * value that does not convert to its type: a duration without its unit ({@code 0}, {@code 2}), a
 * number that is not one, a switch that is neither true nor false. Micronaut binds such a value
 * to the property's default without a word (and reads any word but yes, y, on and true as false),
 * so that a setting meant to switch something off or tighten it would silently leave it as it
 * was, or a misspelt {@code true} would switch a feature off.
 *
 * <p>The properties and their types come from the configuration metadata that the build writes
 * beside the classes ({@value #METADATA}, one entry per component of each configuration record),
 * which the documented table of properties is made from too.
 */
@Context
@Order(Ordered.HIGHEST_PRECEDENCE)
final class PropertyValues {
  static final String METADATA = "META-INF/spring-configuration-metadata.json";
  private static final String PREFIX = "flashclaim.";
  /** The words a switch may be set to: Micronaut's words for true, and their opposites. */
  private static final Pattern SIZE = Pattern.compile("(\\d+)((?i:KB|MB|GB)?)");
  private static final Set<String> SWITCH_WORDS =
      Set.of("true", "false", "yes", "no", "y", "n", "on", "off");

  /** A property's type as the metadata names it: what it converts to, and how to say so. */
  enum Kind {
    DURATION(Duration.class, "a duration: a number and its unit, e.g. 250ms, 2s, 10m"),
    INT(Integer.class, "a whole number"),
    LONG(Long.class, "a whole number"),
    DOUBLE(Double.class, "a number"),
    /** Checked by its words: Micronaut reads every word but yes, y, on and true as false. */
    BOOLEAN(Boolean.class, "true or false"),
    /** A whole number of bytes ({@code @ReadableBytes}), checked by its form and range. */
    BYTES(Integer.class, "a size: a whole number of bytes, or of KB, MB or GB, e.g. 64KB");

    final Class<?> type;
    final String what;

    Kind(Class<?> type, String what) {
      this.type = type;
      this.what = what;
    }

    static Optional<Kind> of(String metadataType) {
      return Optional.ofNullable(
          switch (metadataType) {
            case "java.time.Duration" -> DURATION;
            case "int", "java.lang.Integer" -> INT;
            case "long", "java.lang.Long" -> LONG;
            case "double", "java.lang.Double" -> DOUBLE;
            case "boolean", "java.lang.Boolean" -> BOOLEAN;
            default -> null;
          });
    }
  }

  /** A property of the metadata that is checked: its name, kind and default. */
  record Checked(String name, Kind kind, String defaultValue) {}

  PropertyValues(PropertyResolver properties, ObjectMapper json) {
    List<String> problems = problems(properties, checked(json));
    if (!problems.isEmpty()) {
      throw new ConfigurationException(String.join("; ", problems));
    }
  }

  /**
   * What is wrong with the values set for {@code checked}, one sentence per property, in the order
   * of their names; empty when every value set converts.
   */
  static List<String> problems(PropertyResolver properties, List<Checked> checked) {
    List<String> problems = new ArrayList<>();
    for (Checked property : checked) {
      if (!properties.containsProperty(property.name())) {
        continue;
      }
      String value = properties.getProperty(property.name(), String.class).orElse("");
      boolean converts =
          switch (property.kind()) {
            case BOOLEAN -> SWITCH_WORDS.contains(value.toLowerCase(Locale.ROOT));
            case BYTES -> isSize(value);
            default -> properties.getProperty(property.name(), property.kind().type).isPresent();
          };
      if (converts) {
        continue;
      }
      problems.add(
          property.name()
              + "="
              + value
              + " is not "
              + property.kind().what
              + ": set it so, or remove it for the default"
              + (property.defaultValue() == null ? "" : " (" + property.defaultValue() + ")"));
    }
    return problems;
  }

  /**
   * Whether {@code value} is a size that Micronaut's {@code @ReadableBytes} converter reads and that
   * fits an int: digits, then KB, MB or GB or nothing (any case).
   */
  static boolean isSize(String value) {
    Matcher size = SIZE.matcher(value.trim());
    if (!size.matches()) {
      return false;
    }
    String unit = size.group(2).toUpperCase(Locale.ROOT);
    int shift = unit.isEmpty() ? 0 : unit.equals("KB") ? 10 : unit.equals("MB") ? 20 : 30;
    try {
      long number = Long.parseLong(size.group(1));
      return number <= (Integer.MAX_VALUE >> shift);
    } catch (NumberFormatException tooLong) {
      return false;
    }
  }

  /**
   * Whether the component of the configuration record {@code sourceType} that the property {@code
   * name} binds (its last segment, in camel case) is a size ({@code @ReadableBytes}).
   */
  private static boolean isSizeComponent(String sourceType, String name) {
    String camel = NameUtils.camelCase(name.substring(name.lastIndexOf('.') + 1));
    try {
      Class<?> type = Class.forName(sourceType, false, PropertyValues.class.getClassLoader());
      if (type.getRecordComponents() == null) {
        return false;
      }
      for (RecordComponent component : type.getRecordComponents()) {
        if (component.getName().equals(camel)) {
          return component.isAnnotationPresent(ReadableBytes.class);
        }
      }
    } catch (ClassNotFoundException | LinkageError notLoaded) {
      return false;
    }
    return false;
  }

  /**
   * The property of one entry of the metadata's {@code properties}, if it is a {@code flashclaim.*}
   * property of a type that is checked.
   */
  private static Optional<Checked> checked(Object entry) {
    if (!(entry instanceof Map<?, ?> property
        && property.get("name") instanceof String name
        && name.startsWith(PREFIX)
        && property.get("type") instanceof String type)) {
      return Optional.empty();
    }
    Object defaultValue = property.get("defaultValue");
    Object sourceType = property.get("sourceType");
    return Kind.of(type)
        .map(
            kind ->
                (kind == Kind.INT || kind == Kind.LONG)
                        && sourceType instanceof String source
                        && isSizeComponent(source, name)
                    ? Kind.BYTES
                    : kind)
        .map(
            kind ->
                new Checked(name, kind, defaultValue == null ? null : defaultValue.toString()));
  }

  /** The {@code flashclaim.*} properties of the metadata whose type is checked, by name. */
  static List<Checked> checked(ObjectMapper json) {
    Map<String, Checked> byName = new TreeMap<>();
    try {
      Enumeration<URL> files = PropertyValues.class.getClassLoader().getResources(METADATA);
      if (!files.hasMoreElements()) {
        throw new ConfigurationException(
            METADATA + " is missing from the build: the property values cannot be checked");
      }
      while (files.hasMoreElements()) {
        try (InputStream in = files.nextElement().openStream()) {
          Map<String, Object> metadata =
              json.readValue(in, Argument.mapOf(String.class, Object.class));
          if (metadata != null && metadata.get("properties") instanceof List<?> entries) {
            for (Object entry : entries) {
              checked(entry).ifPresent(property -> byName.put(property.name(), property));
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + METADATA, e);
    }
    return List.copyOf(byName.values());
  }
}
