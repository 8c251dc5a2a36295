package jpai.compiler.phases;

import java.util.HashMap;
import java.util.Map;

import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.java.AccessIndexedNode;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jdk.graal.compiler.nodes.java.StoreIndexedNode;
import jdk.graal.compiler.phases.Phase;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelInputs;

/**
 * Refuses a parallel loop body in which one iteration may read what another writes: an array
 * argument that the body both writes and reads, at indices that are not one and the same value (a
 * write to {@code a[i + 1]} with a read of {@code a[i]}, or a read of {@code a[j]} for another
 * {@code j}). Reading and writing {@code a[i]} in one iteration is fine: no other iteration touches
 * that element. Writes alone at any indices are the user's promise ({@code @Parallel}: iterations are
 * independent). The runtime separately runs a call in Java when two array arguments are the same
 * array (which this phase cannot see).
 *
 * <p>Changes nothing; throws {@link LoopCarriedDependenceException}. Expects: the body of one
 * work-item ({@link ParallelLoopToKernelBodyPhase}) with the method's arrays as parameters
 * ({@link MethodParametersToKernelInputsPhase}), after value numbering (equal index expressions are
 * one node).
 */
public final class LoopCarriedDependencesPhase extends Phase {

    /** A loop the compiler saw a dependence in: the runtime warns once, always, and runs the method in Java. */
    public static final class LoopCarriedDependenceException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final KernelBailoutException bailout;

        LoopCarriedDependenceException(KernelBailoutException bailout) {
            super(bailout.getMessage(), bailout);
            this.bailout = bailout;
        }

        /** The refusal as a bailout (reason and line). */
        public KernelBailoutException bailout() {
            return bailout;
        }
    }

    private final KernelInputs inputs;

    public LoopCarriedDependencesPhase(KernelInputs inputs) {
        this.inputs = inputs;
    }

    @Override
    public java.util.Optional<NotApplicable> notApplicableTo(jdk.graal.compiler.nodes.GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph) {
        Map<ValueNode, AccessIndexedNode> firstStore = new HashMap<>();
        for (StoreIndexedNode store : graph.getNodes().filter(StoreIndexedNode.class)) {
            firstStore.putIfAbsent(skipPi(store.array()), store);
        }
        for (LoadIndexedNode load : graph.getNodes().filter(LoadIndexedNode.class)) {
            ValueNode array = skipPi(load.array());
            if (!firstStore.containsKey(array)) {
                continue; // only read: any index is fine
            }
            for (StoreIndexedNode store : graph.getNodes().filter(StoreIndexedNode.class)) {
                if (skipPi(store.array()) == array && store.index() != load.index()) {
                    throw refuse(load, "writes " + nameOf(array) + " at one index and reads it at another, so an iteration may read what another writes");
                }
            }
        }
    }

    private static LoopCarriedDependenceException refuse(AccessIndexedNode access, String what) {
        KernelBailoutException bailout = KernelBailoutException.at(access, "the @Parallel loop " + what + " (a loop-carried dependence)");
        return new LoopCarriedDependenceException(bailout);
    }

    private String nameOf(ValueNode array) {
        for (int k = 0; k < inputs.captures().size(); k++) {
            if (inputs.capture(k) == array) {
                CapturedValue capture = inputs.captures().get(k);
                return "the array " + capture.name();
            }
        }
        return "an array";
    }

    private static ValueNode skipPi(ValueNode value) {
        ValueNode node = value;
        while (node instanceof PiNode pi) {
            node = pi.getOriginalNode();
        }
        return node;
    }
}
