package jpai.ocl.codegen;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jdk.graal.compiler.core.common.type.FloatStamp;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.AbstractEndNode;
import jdk.graal.compiler.nodes.AbstractMergeNode;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.LoopEndNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PhiNode;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.StructuredGraph.ScheduleResult;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.ValueProxyNode;
import jdk.graal.compiler.nodes.cfg.HIRBlock;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jdk.graal.compiler.phases.schedule.SchedulePhase;
import jdk.graal.compiler.phases.schedule.SchedulePhase.SchedulingStrategy;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelGraph;
import jpai.ocl.OpenCLTypes;

/**
 * Emits a kernel graph as one OpenCL C function: the user's lambda, taking and returning bare
 * primitives. A visitor over the scheduled graph: blocks in reverse post-order, each block's nodes in
 * schedule order, every value in a variable named after its node ({@code v12}), phis assigned on the
 * edges into their merge.
 *
 * <p>Control flow is emitted with labels and {@code goto}: it is exact for every reducible graph
 * Java produces (loops, short-circuit conditions, early returns). Readable structured
 * {@code if/else} and {@code for} recovery is a later refinement of this class.
 */
public final class FunctionEmitter {

    /** The emitted function: its C name, signature and text. */
    public record EmittedFunction(String name, String returnType, List<String> parameterTypes, String text, boolean usesDoubles) {
    }

    private final KernelGraph kernel;
    private final StructuredGraph graph;
    private final String name;
    private final Map<ValueNode, String> variables = new LinkedHashMap<>();
    private final Set<HIRBlock> jumpTargets = new HashSet<>();
    private final ExpressionEmitter expressions = new ExpressionEmitter(this::operand);
    private boolean usesDoubles;

    public FunctionEmitter(KernelGraph kernel, String name) {
        this.kernel = kernel;
        this.graph = kernel.graph();
        this.name = name;
    }

    public EmittedFunction emit() {
        SchedulePhase.runWithoutContextOptimizations(graph, SchedulingStrategy.LATEST_OUT_OF_LOOPS, true);
        ScheduleResult schedule = graph.getLastSchedule();
        HIRBlock[] order = schedule.getCFG().reversePostOrder();

        List<String> parameterTypes = new ArrayList<>();
        List<String> parameters = new ArrayList<>();
        for (ParameterNode parameter : graph.getNodes(ParameterNode.TYPE)) {
            if (!kernel.signature().isArgument(parameter.index())) {
                if (parameter.hasUsages()) {
                    throw KernelBailoutException.at(parameter.usages().first(), "the lambda uses captured values, which are not passed to OpenCL kernels yet");
                }
                continue;
            }
            String type = typeOf(parameter);
            parameterTypes.add(type);
            parameters.add(type + " " + operand(parameter));
        }

        List<CodeWriter> blocks = new ArrayList<>();
        for (int i = 0; i < order.length; i++) {
            HIRBlock next = i + 1 < order.length ? order[i + 1] : null;
            blocks.add(emitBlock(order[i], schedule, next));
        }

        String returnType = returnType();
        CodeWriter function = new CodeWriter();
        function.open(returnType + " " + name + "(" + String.join(", ", parameters) + ")");
        for (Map.Entry<ValueNode, String> variable : variables.entrySet()) {
            if (!(variable.getKey() instanceof ParameterNode)) {
                function.line(typeOf(variable.getKey()) + " " + variable.getValue() + ";");
            }
        }
        for (int i = 0; i < order.length; i++) {
            if (jumpTargets.contains(order[i])) {
                function.label(label(order[i]));
            }
            function.append(blocks.get(i));
        }
        function.close();
        return new EmittedFunction(name, returnType, parameterTypes, function.toString(), usesDoubles);
    }

    private CodeWriter emitBlock(HIRBlock block, ScheduleResult schedule, HIRBlock next) {
        CodeWriter code = new CodeWriter(1);
        for (Node node : schedule.nodesFor(block)) {
            if (node instanceof FixedNode fixed) {
                emitFixed(fixed, schedule, next, code);
            } else if (needsVariable(node)) {
                ValueNode value = (ValueNode) node;
                code.line(operand(value) + " = " + expressions.emit(value) + ";");
            }
        }
        return code;
    }

    private void emitFixed(FixedNode node, ScheduleResult schedule, HIRBlock next, CodeWriter code) {
        if (node instanceof AbstractBeginNode || node instanceof AbstractMergeNode) {
            return; // block entries: phis are assigned on the incoming edges
        }
        if (node instanceof ReturnNode ret) {
            code.line(ret.result() == null ? "return;" : "return " + operand(ret.result()) + ";");
        } else if (node instanceof IfNode ifNode) {
            HIRBlock trueBlock = schedule.blockFor(ifNode.trueSuccessor());
            HIRBlock falseBlock = schedule.blockFor(ifNode.falseSuccessor());
            code.line("if (" + operand(ifNode.condition()) + ") goto " + jumpTo(trueBlock) + ";");
            if (falseBlock != next) {
                code.line("goto " + jumpTo(falseBlock) + ";");
            }
        } else if (node instanceof AbstractEndNode end) {
            AbstractMergeNode merge = end.merge();
            assignPhis(merge, end, code);
            HIRBlock target = schedule.blockFor(merge);
            if (end instanceof LoopEndNode || target != next) {
                code.line("goto " + jumpTo(target) + ";");
            }
        } else if (node instanceof ValueNode value && needsVariable(value)) {
            code.line(operand(value) + " = " + expressions.emit(value) + ";");
        } else {
            throw KernelBailoutException.at(node, describeUnsupported(node));
        }
    }

    private static String describeUnsupported(Node node) {
        String kind = node.getNodeClass().shortName();
        if (kind.contains("Guard") || kind.contains("Deoptimize")) {
            return "a Java exception path (" + kind + ": bounds, null, cast, division or explicit throw) is not compiled to OpenCL yet";
        }
        if (kind.contains("Invoke")) {
            return "a call that could not be inlined is not supported on OpenCL yet";
        }
        return kind + " is not supported on OpenCL yet";
    }

    /** Assigns the merge's phis their values on this edge, as one parallel copy. */
    private void assignPhis(AbstractMergeNode merge, AbstractEndNode end, CodeWriter code) {
        List<PhiNode> phis = new ArrayList<>();
        for (PhiNode phi : merge.phis()) {
            if (phi.hasUsages() && !(phi.stamp(NodeView.DEFAULT).isPointerStamp())) {
                phis.add(phi);
            }
        }
        boolean readsSibling = false;
        for (PhiNode phi : phis) {
            ValueNode input = phi.valueAt(end);
            readsSibling |= input instanceof PhiNode other && other.merge() == merge && phis.contains(other);
        }
        if (!readsSibling) {
            for (PhiNode phi : phis) {
                code.line(operand(phi) + " = " + operand(phi.valueAt(end)) + ";");
            }
            return;
        }
        // A swap (a, b = b, a) in a loop: read every value before writing any.
        code.line("{");
        for (int i = 0; i < phis.size(); i++) {
            code.line("    " + typeOf(phis.get(i)) + " t" + i + " = " + operand(phis.get(i).valueAt(end)) + ";");
        }
        for (int i = 0; i < phis.size(); i++) {
            code.line("    " + operand(phis.get(i)) + " = t" + i + ";");
        }
        code.line("}");
    }

    private String jumpTo(HIRBlock block) {
        jumpTargets.add(block);
        return label(block);
    }

    private static String label(HIRBlock block) {
        return "L" + block.getBeginNode().getId();
    }

    private static boolean needsVariable(Node node) {
        return node instanceof ValueNode value && !(node instanceof ConstantNode) && !(node instanceof LogicConstantNode) && !(node instanceof ParameterNode)
                        && !(node instanceof PhiNode) && !(node instanceof ValueProxyNode) && !(node instanceof AbstractBeginNode)
                        && value.hasUsages() && !value.stamp(NodeView.DEFAULT).isPointerStamp() && !(value.stamp(NodeView.DEFAULT).getStackKind().isObject());
    }

    /** The C text naming a value: a literal for constants, else its variable. */
    private String operand(ValueNode value) {
        ValueNode unproxied = GraphUtil.unproxify(value);
        if (unproxied instanceof ConstantNode constant) {
            return Literals.of(constant.asJavaConstant());
        }
        if (unproxied instanceof LogicConstantNode logic) {
            return logic.getValue() ? "true" : "false";
        }
        return variables.computeIfAbsent(unproxied, v -> (v instanceof ParameterNode parameter ? "p" + parameter.index() : "v" + v.getId()));
    }

    private String typeOf(ValueNode value) {
        if (value instanceof LogicNode) {
            return "bool";
        }
        if (value.stamp(NodeView.DEFAULT) instanceof FloatStamp floating && floating.getBits() == 64) {
            usesDoubles = true;
        }
        return OpenCLTypes.valueType(value.stamp(NodeView.DEFAULT));
    }

    private String returnType() {
        String type = null;
        for (ReturnNode ret : graph.getNodes(ReturnNode.TYPE)) {
            String returned = ret.result() == null ? "void" : typeOf(ret.result());
            if (type != null && !type.equals(returned)) {
                throw KernelBailoutException.at(ret, "the function returns values of different types (" + type + ", " + returned + ")");
            }
            type = returned;
        }
        if (type == null) {
            throw new KernelBailoutException("the function never returns normally (it always throws)", kernel.lambda().location());
        }
        return type;
    }
}
