package jpai.compiler.loops;

/**
 * A local variable of an accelerated method marked by a type annotation ({@code @Parallel},
 * {@code @Reduce}), as the class file records it: its slot, and the bytecode range in which the slot
 * holds it.
 *
 * @param slot the local variable slot
 * @param startPc the first bytecode index of the range
 * @param endPc the bytecode index after the range
 */
public record MarkedVariable(int slot, int startPc, int endPc) {

    /** Whether the slot holds this variable at {@code bci}. */
    public boolean coversBci(int bci) {
        return bci >= startPc && bci < endPc;
    }
}
