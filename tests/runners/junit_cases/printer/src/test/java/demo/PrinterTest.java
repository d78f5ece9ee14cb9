package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PrinterTest {
    private final Format format = new Format(",");

    @Test
    void printsARecord() {
        StringBuilder out = new StringBuilder();
        new Printer(out, format).printRecord("a", "b");
        assertEquals("a,b\n", out.toString());
    }

    @Test
    void printsValues() {
        StringBuilder out = new StringBuilder();
        Printer printer = new Printer(out, format);
        printer.print("a");
        printer.print("b");
        assertEquals(
            "a,b",
            out.toString());
    }

    @Test
    void formats() {
        assertEquals("a,b\n", format.format("a", "b"));
    }

    @Test
    void joins() {
        check("a,b", format.join("a", "b"));
    }

    @Test
    void printsAComment() {
        StringBuilder out = new StringBuilder();
        new Printer(out, format).printComment("x");
        assertEquals("# x\n", out.toString());
    }

    @Test
    void quotes() {
        assertEquals("\"a,b\"", format.quote("a,b"));
    }

    @Test
    void visitsEach() {
        new Printer(new StringBuilder(), format).each(new String[] {"a"}, value -> {
            assertEquals("b", value);
        });
    }

    @Test
    void refusesAnEmptyDelimiter() {
        new Format("");
    }

    private static void check(String expected, String actual) {
        assertEquals(expected, actual, "joined");
    }
}
