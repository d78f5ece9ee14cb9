package demo;

import java.util.function.Consumer;

public final class Printer {
    private final StringBuilder out;
    private final Format format;
    private boolean newRecord = true;

    public Printer(StringBuilder out, Format format) {
        this.out = out;
        this.format = format.validate();
    }

    public void print(Object value) {
        format.print(value, out, newRecord);
        newRecord = false;
    }

    public void printRecord(Object... values) {
        for (Object value : values) {
            print(value);
        }
        out.append("\n");
        newRecord = true;
    }

    public void printComment(String comment) {
        out.append("# ").append(format.quote(comment)).append("\n");
    }

    public void each(String[] values, Consumer<String> action) {
        for (String value : values) {
            action.accept(value);
        }
    }
}
