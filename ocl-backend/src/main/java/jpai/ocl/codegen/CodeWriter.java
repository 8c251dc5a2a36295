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

    /** A line between two blocks, such as {@code "} else {"}: one level out. */
    public CodeWriter between(String line) {
        depth--;
        line(line);
        depth++;
        return this;
    }

    /**
     * True if the last statement written at this writer's own depth is a jump ({@code break},
     * {@code continue}, {@code return} or {@code goto}): control never falls off its end.
     */
    public boolean endsInJump() {
        String[] lines = text.toString().split("\n");
        String indent = "    ".repeat(depth);
        for (int i = lines.length - 1; i >= 0; i--) {
            String line = lines[i];
            if (line.isBlank() || line.trim().endsWith(":;")) {
                continue;
            }
            if (!line.startsWith(indent) || line.startsWith(indent + " ")) {
                return false;
            }
            String statement = line.trim();
            return statement.equals("break;") || statement.equals("continue;") || statement.startsWith("return ") || statement.startsWith("goto ");
        }
        return false;
    }

    public CodeWriter close() {
        depth--;
        return line("}");
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
