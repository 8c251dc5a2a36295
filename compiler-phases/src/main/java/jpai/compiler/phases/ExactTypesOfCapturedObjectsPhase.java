package jpai.compiler.phases;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.core.common.type.TypeReference;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.BasePhase;
import jdk.vm.ci.meta.ResolvedJavaField;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelSignature;

/**
 * Gives each captured object whose fields the kernel may read (the head of a
 * {@link CapturedValue#path()}) its exact class, so that calls of its methods (a getter of a class
 * that is neither final nor a record) are direct calls the inliner inlines, as they would be for a
 * record. Graal otherwise inlines a virtual call only with assumptions about the class hierarchy,
 * which kernels never take.
 *
 * <p>Sound because a lambda's captured variables are final fields of the functional object the
 * kernel is compiled for: the object in such a field, and so its class, never changes. A null one
 * stays null and is left alone.
 *
 * <p>Expects: the parsed graph, before inlining; the receiver (parameter 0) is the functional object
 * {@code function}. Does: after each read of such a field from the receiver, a {@link PiNode} of the
 * object's exact, non-null class that the read's other uses now use.
 */
public final class ExactTypesOfCapturedObjectsPhase extends BasePhase<CoreProviders> {

    private final Object function;
    private final KernelSignature signature;

    public ExactTypesOfCapturedObjectsPhase(Object function, KernelSignature signature) {
        this.function = function;
        this.signature = signature;
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        ParameterNode receiver = graph.getParameter(0);
        if (receiver == null || graph.method().isStatic()) {
            return;
        }
        Set<Field> objects = new HashSet<>();
        for (CapturedValue capture : signature.captures()) {
            if (!capture.path().isEmpty() && Modifier.isFinal(capture.field().getModifiers()) && capture.field().getDeclaringClass().isInstance(function)) {
                objects.add(capture.field());
            }
        }
        for (Field field : objects) {
            Object object = valueOf(field);
            if (object == null) {
                continue;
            }
            ResolvedJavaField resolved = context.getMetaAccess().lookupJavaField(field);
            ResolvedJavaType exact = context.getMetaAccess().lookupJavaType(object.getClass());
            for (Node usage : receiver.usages().snapshot()) {
                if (usage instanceof LoadFieldNode read && read.field().equals(resolved)) {
                    ValueNode typed = graph.addOrUniqueWithInputs(PiNode.create(read, StampFactory.objectNonNull(TypeReference.createExactTrusted(exact))));
                    if (typed != read) {
                        read.replaceAtUsages(typed, other -> other != typed);
                    }
                }
            }
        }
    }

    private Object valueOf(Field field) {
        try {
            field.setAccessible(true);
            return field.get(function);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // unreadable: its methods stay virtual calls, which the compiler then names
        }
    }
}
