package flashclaim.http.admin;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The formats of the claims export, and the choice among them by the request's {@code Accept}
 * (RFC 9110, section 12.5.1): each format gets the weight ({@code q}) of the most specific media
 * range that names it ({@code text/csv} before {@code text/*} before {@code *}{@code /*}); the
 * heaviest format above zero wins, CSV on a tie. No {@code Accept}, or only blank ones: CSV. A
 * range that does not parse is skipped, so an {@code Accept} that names neither format in any
 * readable way gets no format (406).
 */
enum ExportFormat {
  CSV("text", "csv", "text/csv; charset=utf-8", "csv"),
  NDJSON("application", "x-ndjson", "application/x-ndjson", "ndjson");

  static final String CSV_TYPE = "text/csv";
  static final String NDJSON_TYPE = "application/x-ndjson";

  private final String type;
  private final String subtype;
  private final String contentType;
  private final String extension;

  ExportFormat(String type, String subtype, String contentType, String extension) {
    this.type = type;
    this.subtype = subtype;
    this.contentType = contentType;
    this.extension = extension;
  }

  /** The Content-Type of the answer. */
  String contentType() {
    return contentType;
  }

  /** The file name extension of a download. */
  String extension() {
    return extension;
  }

  /** The format the {@code Accept} values choose; empty when they accept neither. */
  static Optional<ExportFormat> negotiate(List<String> accept) {
    if (accept.stream().allMatch(String::isBlank)) {
      return Optional.of(CSV);
    }
    ExportFormat best = null;
    double bestWeight = 0;
    for (ExportFormat format : values()) {
      double weight = format.weight(accept);
      if (weight > bestWeight) {
        best = format;
        bestWeight = weight;
      }
    }
    return Optional.ofNullable(best);
  }

  /** The weight of the most specific range of {@code accept} that matches this format, or 0. */
  private double weight(List<String> accept) {
    int specificity = -1;
    double weight = 0;
    for (String header : accept) {
      for (String range : header.split(",")) {
        String[] parts = range.split(";");
        String[] name = parts[0].strip().toLowerCase(Locale.ROOT).split("/", -1);
        if (name.length != 2) {
          continue;
        }
        int matches = matches(name[0], name[1]);
        Double q = quality(parts);
        if (matches > specificity && q != null) {
          specificity = matches;
          weight = q;
        }
      }
    }
    return weight;
  }

  /** How specifically {@code range} names this format: 2 exactly, 1 by type, 0 any, -1 not. */
  private int matches(String rangeType, String rangeSubtype) {
    if (rangeType.equals(type) && rangeSubtype.equals(subtype)) {
      return 2;
    }
    if (rangeType.equals(type) && rangeSubtype.equals("*")) {
      return 1;
    }
    return rangeType.equals("*") && rangeSubtype.equals("*") ? 0 : -1;
  }

  /** The {@code q} of a range (1 without one); null when it is not a number from 0 to 1. */
  private static Double quality(String[] parts) {
    for (int i = 1; i < parts.length; i++) {
      String parameter = parts[i].strip();
      if (parameter.toLowerCase(Locale.ROOT).startsWith("q=")) {
        try {
          double q = Double.parseDouble(parameter.substring(2).strip());
          return q >= 0 && q <= 1 ? q : null;
        } catch (NumberFormatException e) {
          return null;
        }
      }
    }
    return 1.0;
  }
}
