package jpai.compiler.loops;

import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.AndNode;
import jdk.graal.compiler.nodes.calc.MaxNode;
import jdk.graal.compiler.nodes.calc.MinNode;
import jdk.graal.compiler.nodes.calc.MulNode;
import jdk.graal.compiler.nodes.calc.OrNode;
import jdk.graal.compiler.nodes.calc.XorNode;
import jdk.vm.ci.meta.JavaKind;

/**
 * The operators a {@code @Reduce} variable may be accumulated with: each associative and
 * commutative on the kinds it is accepted for, so that any combining order gives the loop's exact
 * result. A {@code float}/{@code double} sum or product is not: its bits depend on the order, so it
 * is refused (the method runs in Java, as written).
 */
public enum ReductionOperator {
    SUM, PRODUCT, AND, OR, XOR, MIN, MAX;

    /** The operator of {@code node}, or null (also for other compilers' use: {@code CombinerRecognition}). */
    public static ReductionOperator ofNode(ValueNode node) {
        return of(node);
    }

    /** The operator of {@code node}, or null. */
    static ReductionOperator of(ValueNode node) {
        return switch (node) {
            case AddNode a -> SUM;
            case MulNode m -> PRODUCT;
            case AndNode a -> AND;
            case OrNode o -> OR;
            case XorNode x -> XOR;
            case MinNode m -> MIN;
            case MaxNode m -> MAX;
            default -> null;
        };
    }

    /** Whether every combining order gives the same bits for values of {@code kind}. */
    public boolean isExactInAnyOrder(JavaKind kind) {
        // two's complement arithmetic and bit operations are associative and commutative; float and
        // double min and max would be too, but their initial value is a floating-point constant the
        // runtime does not evaluate yet
        return kind == JavaKind.Int || kind == JavaKind.Long;
    }

    /** How sentences name it. */
    public String description() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
