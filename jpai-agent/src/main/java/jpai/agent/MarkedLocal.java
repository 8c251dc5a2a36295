package jpai.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * A local variable of an accelerated method that carries one of JPAI's type annotations
 * ({@code @Parallel} or {@code @Reduce}), as javac records it in the method's Code attribute: the
 * variable's slot and the bytecode range in which the slot holds it. The agent reads these from the
 * class file and hands them to the runtime as one string constant ({@link #encode}), since the
 * runtime's view of a method (JVMCI) does not show a method's type annotations.
 *
 * @param kind what the annotation says of the variable
 * @param slot the local variable slot
 * @param startPc the first bytecode index at which the slot holds the variable
 * @param endPc the bytecode index after the last one at which it does
 */
public record MarkedLocal(Kind kind, int slot, int startPc, int endPc) {

    /** Which annotation. */
    public enum Kind {
        /** {@code @Parallel}: the variable of a loop whose iterations are independent. */
        PARALLEL,
        /** {@code @Reduce}: a variable the loop accumulates into with an associative operator. */
        REDUCE,
        /** {@code @Reduce(reassociate = true)}: as {@link #REDUCE}, and a floating-point sum or product may be reassociated. */
        REDUCE_REASSOCIATED
    }

    /** The descriptor of each annotation the agent reads, by kind. */
    public static final String PARALLEL_DESCRIPTOR = "Ljpai/Parallel;";
    public static final String REDUCE_DESCRIPTOR = "Ljpai/Reduce;";

    /** Whether the slot holds this variable at bytecode index {@code bci}. */
    public boolean coversBci(int bci) {
        return bci >= startPc && bci < endPc;
    }

    /** {@code PARALLEL:3:5:40,REDUCE:4:2:45}: every local of {@code locals}, in order. */
    public static String encode(List<MarkedLocal> locals) {
        StringBuilder text = new StringBuilder();
        for (MarkedLocal local : locals) {
            if (!text.isEmpty()) {
                text.append(',');
            }
            text.append(local.kind).append(':').append(local.slot).append(':').append(local.startPc).append(':').append(local.endPc);
        }
        return text.toString();
    }

    /** The inverse of {@link #encode}. */
    public static List<MarkedLocal> decode(String text) {
        List<MarkedLocal> locals = new ArrayList<>();
        if (text.isEmpty()) {
            return locals;
        }
        for (String entry : text.split(",")) {
            String[] parts = entry.split(":");
            if (parts.length != 4) {
                throw new IllegalArgumentException("not a marked local: '" + entry + "' in '" + text + "'");
            }
            locals.add(new MarkedLocal(Kind.valueOf(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]), Integer.parseInt(parts[3])));
        }
        return locals;
    }
}
