package jpai.test.plugins;

import java.util.Optional;

import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.phases.Phase;

/** A phase plugin with a bug: it throws on every graph, for the tests of what a failing plugin does. */
public final class ThrowingPhase extends Phase {

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph) {
        throw new IllegalStateException("a bug in a research phase");
    }
}
