package jpai.compiler.phases;

import static jpai.compiler.phases.PhaseTestSupport.compile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.vm.ci.meta.JavaKind;

/**
 * A virtual call on one of several constant objects (chosen as {@code CharacterData.of} chooses its
 * table class) becomes direct calls that are inlined: the kernel graph keeps no call and no phi of
 * objects, only the number of the chosen object.
 */
class CallsOnConstantReceiversPhaseTest {

    interface Scale {
        int apply(int x);
    }

    static final class Double implements Scale {
        static final Double INSTANCE = new Double();

        @Override
        public int apply(int x) {
            return 2 * x;
        }
    }

    static final class Negate implements Scale {
        static final Negate INSTANCE = new Negate();

        @Override
        public int apply(int x) {
            return -x;
        }
    }

    static final class Square implements Scale {
        static final Square INSTANCE = new Square();

        @Override
        public int apply(int x) {
            return x * x;
        }
    }

    /** Like {@code CharacterData.of}: one of a few singletons by the value's range. */
    static Scale of(int x) {
        if (x < 0) {
            return Negate.INSTANCE;
        }
        return switch (x >>> 8) {
            case 0 -> Square.INSTANCE;
            case 1, 2 -> Double.INSTANCE;
            default -> Negate.INSTANCE;
        };
    }

    @Test
    void aCallOnOneOfSeveralConstantsIsInlined() {
        Function<Integer, Integer> f = x -> of(x).apply(x) + 1;
        StructuredGraph graph = compile(f, Integer.class, Integer.class, List.of()).graph();
        assertEquals(0, graph.getNodes().filter(n -> n instanceof Invoke).count(), "a call left");
        assertTrue(graph.getNodes().filter(ValuePhiNode.class).stream().noneMatch(phi -> phi.getStackKind() == JavaKind.Object), "a phi of objects left");
    }
}
