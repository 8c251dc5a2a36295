package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.List;

import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jpai.compiler.KernelSignature;

/** Finds the parameter nodes of a function's arguments (not its receiver) in a graph. */
final class KernelArguments {

    private KernelArguments() {
    }

    /** The argument parameters the signature describes, skipping any the graph no longer uses. */
    static List<ParameterNode> of(StructuredGraph graph, KernelSignature signature) {
        List<ParameterNode> result = new ArrayList<>();
        for (ParameterNode parameter : graph.getNodes(ParameterNode.TYPE)) {
            if (signature.isArgument(parameter.index())) {
                result.add(parameter);
            }
        }
        return result;
    }

    /** True if {@code value}, seen through Pi nodes (type refinements), is {@code parameter}. */
    static boolean isParameter(ValueNode value, ParameterNode parameter) {
        return GraphUtil.skipPi(value) == parameter;
    }
}
