package flashclaim;

/**
 * Rules of free text that clients send (names, order ids, token subjects), written once. Both
 * stores keep text as UTF-8: a lone surrogate has no UTF-8 form (it would be stored as {@code ?},
 * so two different values could become one), and PostgreSQL refuses the NUL character outright.
 */
public final class Text {
  private Text() {}

  /** Whether {@code text} is well-formed Unicode: every surrogate is half of a pair. */
  public static boolean isWellFormed(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code text} is well-formed and holds no control character (C0, DEL or C1). */
  public static boolean isPrintable(String text) {
    return isWellFormed(text) && text.chars().noneMatch(Character::isISOControl);
  }
}
