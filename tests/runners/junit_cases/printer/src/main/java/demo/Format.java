package demo;

/** A delimiter-separated format: print(value, out, newRecord) has the planted bug. */
public final class Format {
    private final String delimiter;

    public Format(String delimiter) {
        if (delimiter.isEmpty()) {
            throw new IllegalArgumentException("empty delimiter");
        }
        this.delimiter = delimiter;
    }

    public String format(Object... values) {
        StringBuilder out = new StringBuilder();
        new Printer(out, this).printRecord(values);
        return out.toString();
    }

    public String join(Object... values) {
        StringBuilder out = new StringBuilder();
        boolean first = validate() == this;
        for (Object value : values) {
            print(value, out, first);
            first = false;
        }
        return String.format("%s", out);
    }

    void print(Object value, StringBuilder out, boolean newRecord) {
        if (newRecord) { // the bug: `!newRecord`
            out.append(delimiter);
        }
        out.append(quote(String.valueOf(value)));
    }

    String quote(String text) {
        return text.contains(validate().delimiter) ? "\"" + text + "\"" : text;
    }

    Format validate() {
        return this;
    }
}
