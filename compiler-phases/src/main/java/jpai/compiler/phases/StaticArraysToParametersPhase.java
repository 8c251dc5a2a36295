package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.BasePhase;
import jdk.vm.ci.meta.JavaConstant;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.ImmutableJdkTables;
import jpai.compiler.KernelInputs;
import jpai.compiler.ValueShape;

/**
 * Makes each static array the function reads (a user's {@code static final int[] TABLE}, also where
 * inlined JDK code such as {@code Arrays.binarySearch(TABLE, x)} reads it) a kernel parameter whose
 * elements the runtime sends at each apply, like a captured array's: Java may write the array's
 * elements after the kernel was compiled, and the next apply must see the write (issue 11). Only the
 * JDK's own immutable tables ({@link ImmutableJdkTables}) stay constants, which the backend emits as
 * {@code __constant} tables.
 *
 * <p>Expects: static final fields folded by Graal's canonicaliser, so that such an array is a
 * {@link ConstantNode} of a primitive array type read by {@link LoadIndexedNode}s (its length is
 * already a constant: a final field's array never changes length); runs after the captured values
 * became parameters. Does: records the array object in {@link KernelInputs#addStaticArray} (one slot
 * per array) and makes each element load read the slot's array parameter instead of the constant.
 * Other uses of the constant (a store into it) are left to the backend, which refuses them.
 */
public final class StaticArraysToParametersPhase extends BasePhase<CoreProviders> {

    private final KernelInputs inputs;

    public StaticArraysToParametersPhase(KernelInputs inputs) {
        this.inputs = inputs;
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (ConstantNode constant : graph.getNodes().filter(ConstantNode.class).snapshot()) {
            JavaConstant value = constant.asJavaConstant();
            if (value == null || value.getJavaKind() != JavaKind.Object || value.isNull() || ImmutableJdkTables.contains(value)) {
                continue;
            }
            ResolvedJavaType type = context.getMetaAccess().lookupJavaType(value);
            if (type == null || !type.isArray() || !type.getComponentType().isPrimitive() || !readsElements(constant)) {
                continue;
            }
            Object array = context.getSnippetReflection().asObject(Object.class, value);
            ValueShape.PrimitiveArray shape = new ValueShape.PrimitiveArray(type.getComponentType().getJavaKind());
            ParameterNode parameter = inputs.arrayCapture(graph, inputs.addStaticArray(array, shape), type);
            for (Node usage : constant.usages().snapshot()) {
                if (usage instanceof LoadIndexedNode load && load.array() == constant) {
                    load.replaceFirstInput(constant, parameter);
                }
            }
        }
    }

    private static boolean readsElements(ConstantNode constant) {
        for (Node usage : constant.usages()) {
            if (usage instanceof LoadIndexedNode load && load.array() == constant) {
                return true;
            }
        }
        return false;
    }
}
