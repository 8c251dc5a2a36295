package jpai.ocl.codegen;

/**
 * Indented lines of C text, for the kernel wrappers. Element functions are built as a C syntax tree
 * ({@link jpai.ocl.c.CStmt}) and printed by {@link jpai.ocl.c.CPrinter}.
 */
public final class CodeWriter {

    private final StringBuilder text = new StringBuilder();
    private int depth;

    public CodeWriter() {
        this(0);
    }

    /** A writer whose lines start {@code depth} levels in. */
    public CodeWriter(int depth) {
        this.depth = depth;
    }

    public CodeWriter line(String line) {
        text.append("    ".repeat(depth)).append(line).append('\n');
        return this;
    }

    public CodeWriter open(String line) {
        line(line + " {");
        depth++;
        return this;
    }

    /** A line between two blocks, such as {@code "} else {"}: one level out. */
    public CodeWriter between(String line) {
        depth--;
        line(line);
        depth++;
        return this;
    }

    public CodeWriter close() {
        depth--;
        return line("}");
    }

    /** Closes a block with {@code tail} after its brace, such as {@code " while (0);"}. */
    public CodeWriter close(String tail) {
        depth--;
        return line("}" + tail);
    }

    /** A line exactly as given, without this writer's indentation. */
    public CodeWriter raw(String line) {
        text.append(line).append('\n');
        return this;
    }

    /** A comment line. */
    public CodeWriter comment(String text) {
        return line("/* " + text + " */");
    }

    /** How many levels in the next line starts. */
    public int depth() {
        return depth;
    }

    /** True if nothing has been written. */
    public boolean isEmpty() {
        return text.isEmpty();
    }

    public CodeWriter blank() {
        text.append('\n');
        return this;
    }

    public CodeWriter append(CodeWriter other) {
        text.append(other.text);
        return this;
    }

    /** Text of whole lines (each ending in a newline), exactly as given. */
    public CodeWriter appendText(String lines) {
        text.append(lines);
        return this;
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
