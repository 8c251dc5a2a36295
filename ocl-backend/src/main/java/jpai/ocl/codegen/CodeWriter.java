package jpai.ocl.codegen;

/** Indented lines of C text. */
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

    /** A label, one level out from the code around it, as C programmers write them. */
    public CodeWriter label(String label) {
        text.append("    ".repeat(Math.max(depth - 1, 0))).append(label).append(":;\n");
        return this;
    }

    public CodeWriter open(String line) {
        line(line + " {");
        depth++;
        return this;
    }

    public CodeWriter close() {
        depth--;
        return line("}");
    }

    public CodeWriter blank() {
        text.append('\n');
        return this;
    }

    public CodeWriter append(CodeWriter other) {
        text.append(other.text);
        return this;
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
