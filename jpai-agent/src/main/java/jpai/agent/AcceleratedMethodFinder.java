package jpai.agent;

import java.lang.classfile.Annotation;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.TypeAnnotation;
import java.lang.classfile.attribute.CodeAttribute;
import java.lang.classfile.attribute.RuntimeInvisibleAnnotationsAttribute;
import java.lang.classfile.attribute.RuntimeInvisibleTypeAnnotationsAttribute;
import java.lang.classfile.attribute.RuntimeVisibleAnnotationsAttribute;
import java.lang.classfile.attribute.RuntimeVisibleTypeAnnotationsAttribute;
import java.lang.reflect.AccessFlag;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a class file's annotations that concern JPAI: which methods are marked {@code @Accelerate}
 * and, in each, the locals marked {@code @Parallel} or {@code @Reduce} (type annotations with a
 * local variable target, kept in the method's Code attribute).
 */
final class AcceleratedMethodFinder {

    /** The descriptor of {@code jpai.Accelerate}. */
    static final String ACCELERATE_DESCRIPTOR = "Ljpai/Accelerate;";
    private static final byte[] ACCELERATE_BYTES = ACCELERATE_DESCRIPTOR.getBytes(StandardCharsets.UTF_8);

    /**
     * One method marked {@code @Accelerate}.
     *
     * @param method the method as the class file has it
     * @param isStatic whether it is static (an instance method's receiver goes first in the runtime's arguments)
     * @param locals its marked locals, in the class file's order
     */
    record AcceleratedMethod(MethodModel method, boolean isStatic, List<MarkedLocal> locals) {

        String name() {
            return method.methodName().stringValue();
        }

        String descriptor() {
            return method.methodType().stringValue();
        }
    }

    private AcceleratedMethodFinder() {
    }

    /**
     * Whether the class file may have an {@code @Accelerate} method: its constant pool holds the
     * annotation's descriptor. A byte search, so that the classes that do not (nearly all) are never
     * parsed.
     */
    static boolean mayMention(byte[] classFile) {
        outer:
        for (int i = 0; i + ACCELERATE_BYTES.length <= classFile.length; i++) {
            for (int j = 0; j < ACCELERATE_BYTES.length; j++) {
                if (classFile[i + j] != ACCELERATE_BYTES[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** The methods of {@code model} marked {@code @Accelerate}, in the class file's order. */
    static List<AcceleratedMethod> find(ClassModel model) {
        List<AcceleratedMethod> found = new ArrayList<>();
        for (MethodModel method : model.methods()) {
            if (isAccelerated(method)) {
                found.add(new AcceleratedMethod(method, method.flags().has(AccessFlag.STATIC), markedLocals(method)));
            }
        }
        return found;
    }

    static boolean isAccelerated(MethodModel method) {
        List<Annotation> annotations = new ArrayList<>();
        method.findAttribute(Attributes.runtimeVisibleAnnotations()).map(RuntimeVisibleAnnotationsAttribute::annotations).ifPresent(annotations::addAll);
        method.findAttribute(Attributes.runtimeInvisibleAnnotations()).map(RuntimeInvisibleAnnotationsAttribute::annotations).ifPresent(annotations::addAll);
        return annotations.stream().anyMatch(a -> a.className().equalsString(ACCELERATE_DESCRIPTOR));
    }

    private static List<MarkedLocal> markedLocals(MethodModel method) {
        List<MarkedLocal> locals = new ArrayList<>();
        if (method.code().isEmpty() || !(method.code().get() instanceof CodeAttribute code)) {
            return locals;
        }
        List<TypeAnnotation> annotations = new ArrayList<>();
        code.findAttribute(Attributes.runtimeVisibleTypeAnnotations()).map(RuntimeVisibleTypeAnnotationsAttribute::annotations).ifPresent(annotations::addAll);
        code.findAttribute(Attributes.runtimeInvisibleTypeAnnotations()).map(RuntimeInvisibleTypeAnnotationsAttribute::annotations).ifPresent(annotations::addAll);
        for (TypeAnnotation annotation : annotations) {
            MarkedLocal.Kind kind = kindOf(annotation.annotation());
            if (kind == null || !(annotation.targetInfo() instanceof TypeAnnotation.LocalVarTarget target)) {
                continue;
            }
            for (TypeAnnotation.LocalVarTargetInfo range : target.table()) {
                locals.add(new MarkedLocal(kind, range.index(), code.labelToBci(range.startLabel()), code.labelToBci(range.endLabel())));
            }
        }
        return locals;
    }

    private static MarkedLocal.Kind kindOf(Annotation annotation) {
        if (annotation.className().equalsString(MarkedLocal.PARALLEL_DESCRIPTOR)) {
            return MarkedLocal.Kind.PARALLEL;
        }
        if (annotation.className().equalsString(MarkedLocal.REDUCE_DESCRIPTOR)) {
            boolean reassociate = annotation.elements().stream()
                            .anyMatch(e -> e.name().equalsString("reassociate") && e.value() instanceof java.lang.classfile.AnnotationValue.OfBoolean b && b.booleanValue());
            return reassociate ? MarkedLocal.Kind.REDUCE_REASSOCIATED : MarkedLocal.Kind.REDUCE;
        }
        return null;
    }
}
