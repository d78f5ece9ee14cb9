"""HELD-OUT Java near-copy set (#34, #35), never tuned on; format in nearcopy_languages.py.

Project helpers: Guava 33.3.1-jre from Maven Central (its sources jar), the package com.google.common.base
only (Strings, Ascii, Throwables, Utf8, Preconditions, MoreObjects): `keep` is that folder, so the project
is the base package's 50-odd files. Copies are rewritten as agents do in Java: loops and streams
(`IntStream`/`Collectors.joining`, `chars().noneMatch`/`forEach`), `while` and `for` with `break`, a
`StringJoiner` for a hand-built list, private helpers inlined, independent `instanceof` tests and `||`
operands reordered, `else if` chains as guards and early returns, renamed locals, a new name. Each copy was
compiled into its class and compared with the original on sample inputs before this commit. A case is
one method: as_file(case, "java", JAVA_PACKAGES[label]) wraps it in a class of the package.
"""

from __future__ import annotations

from nearcopies import Case
from realprojects import Project

LANGUAGE = "java"
SUFFIX = ".java"
PROJECTS = {
    "guava": Project(
        "java", "maven", "com.google.guava:guava:33.3.1-jre", "com/google/common/base", (".java",)
    ),
}
JAVA_PACKAGES = {"guava": "com.google.common.base"}  # the package clause for as_file()

COPIES = [
    Case(
        "guava",
        "padStart",
        r"""
public static String leftPad(String text, int width, char fill) {
    checkNotNull(text);
    int missing = width - text.length();
    if (missing <= 0) {
        return text;
    }
    StringBuilder out = new StringBuilder(width);
    while (missing-- > 0) {
        out.append(fill);
    }
    return out.append(text).toString();
}
""",
        "com/google/common/base/Strings.java: the for loop from the length as a count-down while, "
        "the append chained into the return",
    ),
    Case(
        "guava",
        "padEnd",
        r"""
public static String rightPad(String text, int width, char fill) {
    checkNotNull(text);
    if (text.length() < width) {
        return text
            + IntStream.range(text.length(), width)
                .mapToObj(i -> String.valueOf(fill))
                .collect(Collectors.joining());
    }
    return text;
}
""",
        "com/google/common/base/Strings.java: the builder loop as an IntStream joined, the guard "
        "inverted around it",
    ),
    Case(
        "guava",
        "repeat",
        r"""
public static String repeatText(String text, int times) {
    checkNotNull(text);
    checkArgument(times >= 0, "invalid count: %s", times);
    if (times <= 1) {
        return times == 0 ? "" : text;
    }
    long total = (long) text.length() * times;
    if ((int) total != total) {
        throw new ArrayIndexOutOfBoundsException("Required array size too large: " + total);
    }
    StringBuilder out = new StringBuilder((int) total);
    for (int k = 0; k < times; k++) {
        out.append(text);
    }
    return out.toString();
}
""",
        "com/google/common/base/Strings.java: the doubling arraycopy as an append loop, the "
        "argument check hoisted",
    ),
    Case(
        "guava",
        "commonPrefix",
        r"""
public static String sharedPrefix(CharSequence a, CharSequence b) {
    checkNotNull(a);
    checkNotNull(b);
    int limit = Math.min(a.length(), b.length());
    int p = 0;
    for (; p < limit; p++) {
        if (a.charAt(p) != b.charAt(p)) {
            break;
        }
    }
    if (validSurrogatePairAt(b, p - 1) || validSurrogatePairAt(a, p - 1)) {
        p--;
    }
    return a.subSequence(0, p).toString();
}
""",
        "com/google/common/base/Strings.java: the while with && as a for loop with break, the || "
        "operands swapped",
    ),
    Case(
        "guava",
        "commonSuffix",
        r"""
public static String sharedSuffix(CharSequence a, CharSequence b) {
    checkNotNull(a);
    checkNotNull(b);
    int limit = Math.min(a.length(), b.length());
    int s = 0;
    while (s < limit) {
        if (a.charAt(a.length() - 1 - s) != b.charAt(b.length() - 1 - s)) {
            break;
        }
        s++;
    }
    int ia = a.length() - s - 1;
    int ib = b.length() - s - 1;
    boolean splitPair =
        (ia >= 0 && ia <= a.length() - 2
                && Character.isHighSurrogate(a.charAt(ia))
                && Character.isLowSurrogate(a.charAt(ia + 1)))
            || (ib >= 0 && ib <= b.length() - 2
                && Character.isHighSurrogate(b.charAt(ib))
                && Character.isLowSurrogate(b.charAt(ib + 1)));
    if (splitPair) {
        s--;
    }
    return a.subSequence(a.length() - s, a.length()).toString();
}
""",
        "com/google/common/base/Strings.java: validSurrogatePairAt inlined twice, the while's "
        "second test as a break",
    ),
    Case(
        "guava",
        "lenientFormat",
        r"""
public static String formatLeniently(@CheckForNull String template, @CheckForNull Object... args) {
    String text = String.valueOf(template);
    if (args == null) {
        args = new Object[] {"(Object[])null"};
    } else {
        for (int k = 0; k < args.length; k++) {
            args[k] = lenientToString(args[k]);
        }
    }
    StringBuilder out = new StringBuilder(text.length() + 16 * args.length);
    int from = 0;
    int used = 0;
    for (; used < args.length; used++) {
        int at = text.indexOf("%s", from);
        if (at < 0) {
            break;
        }
        out.append(text, from, at).append(args[used]);
        from = at + 2;
    }
    out.append(text, from, text.length());
    if (used < args.length) {
        StringJoiner extra = new StringJoiner(", ", " [", "]");
        for (int k = used; k < args.length; k++) {
            extra.add(String.valueOf(args[k]));
        }
        out.append(extra);
    }
    return out.toString();
}
""",
        "com/google/common/base/Strings.java: the placeholder while as a for loop, the bracketed "
        "tail as a StringJoiner",
    ),
    Case(
        "guava",
        "toLowerCase",
        r"""
public static String asciiLower(String string) {
    char[] chars = null;
    for (int i = 0; i < string.length(); i++) {
        char c = string.charAt(i);
        if (c >= 'A' && c <= 'Z') {
            if (chars == null) {
                chars = string.toCharArray();
            }
            chars[i] = (char) (c ^ CASE_MASK);
        }
    }
    return chars == null ? string : String.valueOf(chars);
}
""",
        "com/google/common/base/Ascii.java: the nested loops as one loop with a lazily copied "
        "array, isUpperCase inlined",
    ),
    Case(
        "guava",
        "toUpperCase",
        r"""
public static String asciiUpper(String string) {
    if (string.chars().noneMatch(c -> c >= 'a' && c <= 'z')) {
        return string;
    }
    StringBuilder out = new StringBuilder(string.length());
    string.chars().forEach(c -> out.append((char) (isLowerCase((char) c) ? c ^ CASE_MASK : c)));
    return out.toString();
}
""",
        "com/google/common/base/Ascii.java: the search loop as chars().noneMatch, the conversion "
        "loop as chars().forEach",
    ),
    Case(
        "guava",
        "truncate",
        r"""
public static String shorten(CharSequence seq, int maxLength, String truncationIndicator) {
    checkNotNull(seq);
    int keep = maxLength - truncationIndicator.length();
    checkArgument(
        keep >= 0,
        "maxLength (%s) must be >= length of the truncation indicator (%s)",
        maxLength,
        truncationIndicator.length());
    String text = seq.length() <= maxLength ? seq.toString() : null;
    if (text != null && text.length() <= maxLength) {
        return text;
    }
    CharSequence source = text != null ? text : seq;
    return new StringBuilder(maxLength).append(source, 0, keep).append(truncationIndicator).toString();
}
""",
        "com/google/common/base/Ascii.java: the nested ifs as a nullable string and one test, the "
        "source chosen before the builder",
    ),
    Case(
        "guava",
        "equalsIgnoreCase",
        r"""
public static boolean sameIgnoringAsciiCase(CharSequence s1, CharSequence s2) {
    int length = s1.length();
    if (s1 == s2) {
        return true;
    }
    if (length != s2.length()) {
        return false;
    }
    for (int i = 0; i < length; i++) {
        char c1 = s1.charAt(i);
        char c2 = s2.charAt(i);
        if (c1 != c2) {
            int index = (char) ((c1 | CASE_MASK) - 'a');
            if (index >= 26 || index != (char) ((c2 | CASE_MASK) - 'a')) {
                return false;
            }
        }
    }
    return true;
}
""",
        "com/google/common/base/Ascii.java: getAlphaIndex inlined, the two continues as one "
        "negated if",
    ),
    Case(
        "guava",
        "getRootCause",
        r"""
public static Throwable deepestCause(Throwable error) {
    Throwable slow = error;
    boolean moveSlow = false;
    Throwable current = error;
    while (current.getCause() != null) {
        current = current.getCause();
        if (current == slow) {
            throw new IllegalArgumentException("Loop in causal chain detected.", current);
        }
        if (moveSlow) {
            slow = slow.getCause();
        }
        moveSlow = !moveSlow;
    }
    return current;
}
""",
        "com/google/common/base/Throwables.java: the assignment in the while test split out, "
        "locals renamed",
    ),
    Case(
        "guava",
        "getCausalChain",
        r"""
public static List<Throwable> causeChain(Throwable error) {
    checkNotNull(error);
    List<Throwable> chain = new ArrayList<>(4);
    chain.add(error);
    Throwable slow = error;
    boolean moveSlow = false;
    for (Throwable t = error.getCause(); t != null; t = t.getCause()) {
        chain.add(t);
        if (t == slow) {
            throw new IllegalArgumentException("Loop in causal chain detected.", t);
        }
        if (moveSlow) {
            slow = slow.getCause();
        }
        moveSlow = !moveSlow;
    }
    return Collections.unmodifiableList(chain);
}
""",
        "com/google/common/base/Throwables.java: the while with an assignment as a for over "
        "getCause()",
    ),
    Case(
        "guava",
        "throwIfUnchecked",
        r"""
public static void rethrowUnchecked(Throwable throwable) {
    checkNotNull(throwable);
    if (throwable instanceof Error) {
        throw (Error) throwable;
    }
    if (throwable instanceof RuntimeException) {
        throw (RuntimeException) throwable;
    }
}
""",
        "com/google/common/base/Throwables.java: the two independent instanceof tests swapped",
    ),
    Case(
        "guava",
        "encodedLength",
        r"""
public static int utf8Length(CharSequence sequence) {
    int utf16Length = sequence.length();
    int total = utf16Length;
    int i = 0;
    while (i < utf16Length && sequence.charAt(i) < 0x80) {
        i++;
    }
    while (i < utf16Length) {
        char c = sequence.charAt(i);
        if (c >= 0x800) {
            total += encodedLengthGeneral(sequence, i);
            break;
        }
        if (c >= 0x80) {
            total++;
        }
        i++;
    }
    if (total < utf16Length) {
        throw new IllegalArgumentException("UTF-8 length does not fit in int: " + (total + (1L << 32)));
    }
    return total;
}
""",
        "com/google/common/base/Utf8.java: the branch-free increment as an if, the for/else as a "
        "while with an early break",
    ),
    Case(
        "guava",
        "encodedLengthGeneral",
        r"""
private static int utf8LengthFrom(CharSequence sequence, int start) {
    int extra = 0;
    for (int i = start; i < sequence.length(); i++) {
        char c = sequence.charAt(i);
        if (c >= 0x800) {
            extra += 2;
            if (Character.isSurrogate(c)) {
                if (Character.codePointAt(sequence, i) == c) {
                    throw new IllegalArgumentException("Unpaired surrogate at index " + i);
                }
                i++;
            }
        } else if (c > 0x7f) {
            extra++;
        }
    }
    return extra;
}
""",
        "com/google/common/base/Utf8.java: the branches swapped, the surrogate range as "
        "Character.isSurrogate, the message helper inlined",
    ),
    Case(
        "guava",
        "isWellFormed",
        r"""
public static boolean validUtf8(byte[] bytes, int off, int len) {
    int end = off + len;
    checkPositionIndexes(off, end, bytes.length);
    int i = off;
    while (i < end && bytes[i] >= 0) {
        i++;
    }
    return i == end || isWellFormedSlowPath(bytes, i, end);
}
""",
        "com/google/common/base/Utf8.java: the loop that returns as a scan and one boolean "
        "expression",
    ),
    Case(
        "guava",
        "badElementIndex",
        r"""
private static String elementIndexMessage(int index, int size, String desc) {
    if (index >= 0 && size < 0) {
        throw new IllegalArgumentException("negative size: " + size);
    }
    if (index < 0) {
        return lenientFormat("%s (%s) must not be negative", desc, index);
    }
    return lenientFormat("%s (%s) must be less than size (%s)", desc, index, size);
}
""",
        "com/google/common/base/Preconditions.java: the else-if chain as a guard first and early "
        "returns",
    ),
    Case(
        "guava",
        "badPositionIndexes",
        r"""
private static String positionIndexesMessage(int start, int end, int size) {
    boolean startBad = start < 0 || start > size;
    boolean endBad = end < 0 || end > size;
    if (!startBad && !endBad) {
        return lenientFormat("end index (%s) must not be less than start index (%s)", end, start);
    }
    return startBad
        ? badPositionIndex(start, size, "start index")
        : badPositionIndex(end, size, "end index");
}
""",
        "com/google/common/base/Preconditions.java: the two range tests named, the good case "
        "first, a conditional return",
    ),
    Case(
        "guava",
        "firstNonNull",
        r"""
public static <T> T firstPresent(@CheckForNull T first, @CheckForNull T second) {
    if (first == null && second == null) {
        throw new NullPointerException("Both parameters are null");
    }
    T chosen = first != null ? first : second;
    return chosen;
}
""",
        "com/google/common/base/MoreObjects.java: the two early returns as one failure test and a "
        "conditional",
    ),
]

NEAR_MISSES = [
    Case(
        "guava",
        "",
        r"""
public static String fixedWidthRight(String text, int width, char fill) {
    checkNotNull(text);
    int missing = width - text.length();
    if (missing <= 0) {
        return text.substring(text.length() - width);
    }
    StringBuilder out = new StringBuilder(width);
    while (missing-- > 0) {
        out.append(fill);
    }
    return out.append(text).toString();
}
""",
        "like padStart (com/google/common/base/Strings.java): a fixed width: longer text is cut "
        "to its last characters",
    ),
    Case(
        "guava",
        "",
        r"""
public static String center(String text, int width, char fill) {
    checkNotNull(text);
    if (text.length() >= width) {
        return text;
    }
    int left = (width - text.length()) / 2;
    int right = width - text.length() - left;
    String pad = String.valueOf(fill);
    return pad.repeat(left) + text + pad.repeat(right);
}
""",
        "like padEnd (com/google/common/base/Strings.java): pads on both sides, centring the text",
    ),
    Case(
        "guava",
        "",
        r"""
public static String repeatJoined(String text, int times, String separator) {
    checkNotNull(text);
    checkArgument(times >= 0, "invalid count: %s", times);
    StringBuilder out = new StringBuilder();
    for (int k = 0; k < times; k++) {
        if (k > 0) {
            out.append(separator);
        }
        out.append(text);
    }
    return out.toString();
}
""",
        "like repeat (com/google/common/base/Strings.java): a separator between the copies, no "
        "size check",
    ),
    Case(
        "guava",
        "",
        r"""
public static String sharedPrefixIgnoreCase(CharSequence a, CharSequence b) {
    checkNotNull(a);
    checkNotNull(b);
    int limit = Math.min(a.length(), b.length());
    int p = 0;
    for (; p < limit; p++) {
        if (Character.toLowerCase(a.charAt(p)) != Character.toLowerCase(b.charAt(p))) {
            break;
        }
    }
    return a.subSequence(0, p).toString();
}
""",
        "like commonPrefix (com/google/common/base/Strings.java): ignores case, surrogate pairs "
        "not kept whole",
    ),
    Case(
        "guava",
        "",
        r"""
public static int sharedSuffixLength(CharSequence a, CharSequence b) {
    checkNotNull(a);
    checkNotNull(b);
    int limit = Math.min(a.length(), b.length());
    int s = 0;
    while (s < limit) {
        if (a.charAt(a.length() - 1 - s) != b.charAt(b.length() - 1 - s)) {
            break;
        }
        s++;
    }
    return s;
}
""",
        "like commonSuffix (com/google/common/base/Strings.java): the length of the shared "
        "suffix, pairs not checked",
    ),
    Case(
        "guava",
        "",
        r"""
public static String formatBraces(String template, Object... args) {
    StringBuilder out = new StringBuilder(template.length() + 16 * args.length);
    int from = 0;
    int used = 0;
    for (; used < args.length; used++) {
        int at = template.indexOf("{}", from);
        if (at < 0) {
            break;
        }
        out.append(template, from, at).append(args[used]);
        from = at + 2;
    }
    out.append(template, from, template.length());
    return out.toString();
}
""",
        "like lenientFormat (com/google/common/base/Strings.java): `{}` placeholders, extra "
        "arguments dropped, null template not tolerated",
    ),
    Case(
        "guava",
        "",
        r"""
public static String decapitalize(String string) {
    if (string.isEmpty()) {
        return string;
    }
    char c = string.charAt(0);
    if (c < 'A' || c > 'Z') {
        return string;
    }
    char[] chars = string.toCharArray();
    chars[0] = (char) (c ^ CASE_MASK);
    return String.valueOf(chars);
}
""",
        "like toLowerCase (com/google/common/base/Ascii.java): lowers only the first character",
    ),
    Case(
        "guava",
        "",
        r"""
public static String unicodeUpper(String string) {
    if (string.chars().noneMatch(Character::isLowerCase)) {
        return string;
    }
    StringBuilder out = new StringBuilder(string.length());
    string.chars().forEach(c -> out.append((char) Character.toUpperCase(c)));
    return out.toString();
}
""",
        "like toUpperCase (com/google/common/base/Ascii.java): full Unicode upper-casing, not "
        "ASCII only",
    ),
    Case(
        "guava",
        "",
        r"""
public static String shortenAtWord(CharSequence seq, int maxLength, String truncationIndicator) {
    checkNotNull(seq);
    String text = seq.toString();
    if (text.length() <= maxLength) {
        return text;
    }
    int cut = text.lastIndexOf(' ', maxLength);
    if (cut <= 0) {
        cut = maxLength;
    }
    return text.substring(0, cut) + truncationIndicator;
}
""",
        "like truncate (com/google/common/base/Ascii.java): cuts at the last space before the "
        "limit, indicator beyond maxLength",
    ),
    Case(
        "guava",
        "",
        r"""
public static boolean sameIgnoringSpaces(CharSequence s1, CharSequence s2) {
    int i = 0;
    int j = 0;
    while (true) {
        while (i < s1.length() && Character.isWhitespace(s1.charAt(i))) {
            i++;
        }
        while (j < s2.length() && Character.isWhitespace(s2.charAt(j))) {
            j++;
        }
        if (i == s1.length() || j == s2.length()) {
            return i == s1.length() && j == s2.length();
        }
        if (s1.charAt(i++) != s2.charAt(j++)) {
            return false;
        }
    }
}
""",
        "like equalsIgnoreCase (com/google/common/base/Ascii.java): whitespace is skipped on both "
        "sides",
    ),
    Case(
        "guava",
        "",
        r"""
public static Throwable causeOfType(Throwable error, Class<? extends Throwable> type) {
    Throwable current = error;
    while (current != null) {
        if (type.isInstance(current)) {
            return current;
        }
        current = current.getCause();
    }
    return error;
}
""",
        "like getRootCause (com/google/common/base/Throwables.java): stops at the first cause of "
        "a given type, no loop detection",
    ),
    Case(
        "guava",
        "",
        r"""
public static List<String> causeMessages(Throwable error) {
    checkNotNull(error);
    List<String> messages = new ArrayList<>(4);
    for (Throwable t = error; t != null; t = t.getCause()) {
        if (t.getMessage() != null) {
            messages.add(t.getMessage());
        }
    }
    return messages;
}
""",
        "like getCausalChain (com/google/common/base/Throwables.java): the messages of the chain, "
        "nulls skipped, modifiable, no loop check",
    ),
    Case(
        "guava",
        "",
        r"""
public static boolean isUnchecked(Throwable throwable) {
    checkNotNull(throwable);
    if (throwable instanceof Error) {
        return true;
    }
    if (throwable instanceof RuntimeException) {
        return true;
    }
    return false;
}
""",
        "like throwIfUnchecked (com/google/common/base/Throwables.java): only says whether it is "
        "unchecked, never throws",
    ),
    Case(
        "guava",
        "",
        r"""
public static int codePointLength(CharSequence sequence) {
    int count = 0;
    int i = 0;
    while (i < sequence.length()) {
        char c = sequence.charAt(i);
        if (Character.isHighSurrogate(c) && i + 1 < sequence.length()) {
            i++;
        }
        i++;
        count++;
    }
    return count;
}
""",
        "like encodedLength (com/google/common/base/Utf8.java): counts code points, not UTF-8 "
        "bytes",
    ),
    Case(
        "guava",
        "",
        r"""
private static int cesu8LengthFrom(CharSequence sequence, int start) {
    int extra = 0;
    for (int i = start; i < sequence.length(); i++) {
        char c = sequence.charAt(i);
        if (c >= 0x800) {
            extra += 2;
        } else if (c > 0x7f) {
            extra++;
        }
    }
    return extra;
}
""",
        "like encodedLengthGeneral (com/google/common/base/Utf8.java): CESU-8: each surrogate "
        "counts 3 bytes, no unpaired check",
    ),
    Case(
        "guava",
        "",
        r"""
public static boolean isAscii(byte[] bytes, int off, int len) {
    int end = off + len;
    checkPositionIndexes(off, end, bytes.length);
    int i = off;
    while (i < end && bytes[i] >= 0) {
        i++;
    }
    return i == end;
}
""",
        "like isWellFormed (com/google/common/base/Utf8.java): accepts only ASCII bytes",
    ),
    Case(
        "guava",
        "",
        r"""
private static String indexProblem(int index, int size, String desc) {
    if (size < 0) {
        return desc + ": size " + size + " is negative";
    }
    if (index < 0) {
        return desc + ": index " + index + " is negative";
    }
    return desc + ": index " + index + " is out of bounds for size " + size;
}
""",
        "like badElementIndex (com/google/common/base/Preconditions.java): a message for a "
        "negative size instead of an exception, other wording",
    ),
    Case(
        "guava",
        "",
        r"""
private static String rangeProblem(int start, int end, int size) {
    boolean startBad = start < 0 || start > size;
    boolean endBad = end < 0 || end > size;
    if (endBad) {
        return badPositionIndex(end, size, "end index");
    }
    if (startBad) {
        return badPositionIndex(start, size, "start index");
    }
    return lenientFormat("end index (%s) must not be less than start index (%s)", end, start);
}
""",
        "like badPositionIndexes (com/google/common/base/Preconditions.java): the end index is "
        "checked before the start",
    ),
    Case(
        "guava",
        "",
        r"""
@SafeVarargs
public static <T> T coalesce(T... values) {
    for (T value : values) {
        if (value != null) {
            return value;
        }
    }
    return null;
}
""",
        "like firstNonNull (com/google/common/base/MoreObjects.java): any number of values, null "
        "when all are null",
    ),
]

HELDOUT_JAVA = COPIES + NEAR_MISSES
