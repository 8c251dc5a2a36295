package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.List;

import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.MulNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.calc.IsNullNode;
import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.core.common.type.StampPair;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.java.ArrayLengthNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jdk.graal.compiler.nodes.java.StoreIndexedNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.ResolvedJavaField;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelInputs;
import jpai.compiler.KernelSignature;
import jpai.compiler.LambdaDescription;
import jpai.compiler.ValueShape;

/**
 * Turns the values a lambda captured into kernel parameters. A lambda's captured variables are
 * final instance fields of its hidden class; the function reads them from its receiver. The runtime
 * lists them ({@link KernelSignature#captures()}) and passes their values to the kernel.
 *
 * <p>Expects: the receiver (parameter 0) used only by reads of its fields ({@link LoadFieldNode}),
 * possibly through Pi nodes, frame states dropped; the fields of a captured object read the same
 * way, with null checks ({@link IsNullNode}) on the object. Does: for each read of a listed field
 * (or of a listed field path through captured objects, {@link CapturedValue#path()}), creates
 * (once per captured value) a parameter recorded in {@link KernelInputs} and replaces the read:
 * <ul>
 * <li>{@link ValueShape.Primitive}: by the primitive parameter;</li>
 * <li>{@link ValueShape.BoxedPrimitive}: by a {@link BoxNode} of the primitive parameter, which the
 * canonicalizer run afterwards folds into the unboxing that uses it; its null checks test the
 * capture's length parameter, -1 for a null box (1 otherwise);</li>
 * <li>{@link ValueShape.PrimitiveArray}: by a parameter of the exact array type, plus an
 * {@code int} parameter for its length that replaces every {@link ArrayLengthNode} on it and is -1
 * for a null array, which the array's null checks then test;</li>
 * <li>{@link ValueShape.RectangularArray}: by one parameter of the row type holding every row one
 * after the other, an {@code int} parameter for the number of rows (-1 for a null array; its null
 * checks and {@code m.length} read it, as for a 1-D array) and one for the length of the rows
 * ({@code m[i].length}); a row {@code m[i]} is never null there (the runtime sends only rectangular
 * arrays), and {@code m[i][j]} becomes a load of element {@code i * rowLength + j} of the flat
 * parameter, after the same checks of {@code i} and {@code j} as Java's;</li>
 * <li>{@link ValueShape.ElementReader}: nothing to replace, {@link ElementReaderCallsToAccessesPhase}
 * already turned its uses into accesses of its parameters; the read is deleted, or, if something
 * else still uses it, the phase bails out.</li>
 * </ul>
 * The null checks of a captured object on a path become false: the runtime runs an apply in Java
 * when an object on a path the kernel reads is null. A read of a field the runtime did not list, or
 * any other use of the receiver or of a captured object, bails out naming the field; a captured
 * {@code this} whose fields the runtime did not list bails out with advice.
 */
public final class CapturedValuesToParametersPhase extends KernelBoundaryPhase {

    private final KernelInputs inputs;
    private final LambdaDescription lambda;

    /** How messages name the code: "the lambda", or "the method" for an accelerated instance method, whose receiver's fields are its captured values. */
    private final String subject;

    public CapturedValuesToParametersPhase(CanonicalizerPhase canonicalizer, KernelSignature signature, KernelInputs inputs, LambdaDescription lambda) {
        this(canonicalizer, signature, inputs, lambda, "the lambda");
    }

    /**
     * For an accelerated instance method ({@code subject} "the method"): its receiver plays the
     * functional object, and the fields of it the runtime lists are the captured values.
     */
    public CapturedValuesToParametersPhase(CanonicalizerPhase canonicalizer, KernelSignature signature, KernelInputs inputs, LambdaDescription lambda, String subject) {
        super(canonicalizer, signature);
        this.inputs = inputs;
        this.lambda = lambda;
        this.subject = subject;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        ParameterNode receiver = graph.getParameter(0);
        if (receiver == null || graph.method().isStatic()) {
            return;
        }
        // reads of fields no capture starts with bail out in replaceFieldRead
        List<LoadFieldNode> reads = new ArrayList<>();
        collectReads(receiver, reads);
        for (LoadFieldNode read : reads) {
            replaceFieldRead(graph, context, read, List.of(read.field()));
        }
    }

    /**
     * Replaces {@code read}, which reads the field path {@code fields} from the functional object:
     * by the captured value listed for that path, or, where listed paths continue from it (a captured
     * object), by replacing the reads of the object's fields in turn.
     */
    private void replaceFieldRead(StructuredGraph graph, CoreProviders context, LoadFieldNode read, List<ResolvedJavaField> fields) {
        List<CapturedValue> captures = signature.captures();
        boolean continues = false;
        for (int k = 0; k < captures.size(); k++) {
            List<ResolvedJavaField> listed = resolved(context, captures.get(k));
            if (listed.equals(fields)) {
                replace(graph, context, read, k, captures.get(k));
                return;
            }
            continues |= listed.size() > fields.size() && listed.subList(0, fields.size()).equals(fields);
        }
        if (!continues) {
            throw fields.size() == 1 ? unlisted(read) : unlistedField(read, fields);
        }
        replaceObjectUses(graph, context, read, fields);
        removeUnused(graph, read);
    }

    /**
     * The uses of a captured object ({@code object}: its field read or a Pi of it): reads of
     * its fields are replaced in turn, its null checks are false (the runtime runs an apply in Java
     * when the object is null), anything else bails out.
     */
    private void replaceObjectUses(StructuredGraph graph, CoreProviders context, ValueNode object, List<ResolvedJavaField> fields) {
        for (Node usage : object.usages().snapshot()) {
            if (usage instanceof LoadFieldNode fieldRead && fieldRead.object() == object) {
                List<ResolvedJavaField> longer = new ArrayList<>(fields);
                longer.add(fieldRead.field());
                replaceFieldRead(graph, context, fieldRead, longer);
            } else if (usage instanceof IsNullNode isNull) {
                isNull.replaceAtUsagesAndDelete(LogicConstantNode.contradiction(graph));
            } else if (usage instanceof PiNode pi) {
                replaceObjectUses(graph, context, pi, fields);
            } else if (!(usage instanceof FrameState)) {
                throw KernelBailoutException.at(usage, subject + " uses " + describe(fields) + " other than by reading its fields ("
                                + jpai.compiler.JavaConstructs.describe(usage) + "); kernels have its field values, not the object");
            }
        }
    }

    private static List<ResolvedJavaField> resolved(CoreProviders context, CapturedValue capture) {
        List<ResolvedJavaField> fields = new ArrayList<>();
        for (java.lang.reflect.Field field : capture.fields()) {
            fields.add(context.getMetaAccess().lookupJavaField(field));
        }
        return fields;
    }

    /**
     * How sentences name the value read through {@code fields} from the functional object: {@code the
     * captured Params} (javac's {@code arg$1} is no name the user wrote), {@code the field
     * inner.weights of the captured Model}.
     */
    private static String describe(List<ResolvedJavaField> fields) {
        ResolvedJavaField head = fields.get(0);
        String object = head.getName().startsWith("arg$") ? "the captured " + head.getType().toJavaName(false).replaceFirst(".*[.$]", "") : "the captured field " + head.getName();
        if (fields.size() == 1) {
            return object;
        }
        StringBuilder path = new StringBuilder();
        for (ResolvedJavaField field : fields.subList(1, fields.size())) {
            path.append(path.isEmpty() ? "" : ".").append(field.getName());
        }
        return "the field " + path + " of " + object;
    }

    private KernelBailoutException unlistedField(LoadFieldNode read, List<ResolvedJavaField> fields) {
        ResolvedJavaField field = fields.get(fields.size() - 1);
        String why = field.isVolatile() ? "a volatile field, which kernels cannot re-read as Java would"
                        : "of type " + field.getType().toJavaName(false) + ", which the runtime does not pass to OpenCL"
                                        + " (primitives, their wrappers, primitive arrays and rectangular 2-D primitive arrays, two objects deep at most)";
        return KernelBailoutException.at(read, subject + " reads " + describe(fields) + ": " + why);
    }

    /** Deletes a replaced read once nothing but unused Pi nodes of it remains. */
    private static void removeUnused(StructuredGraph graph, jdk.graal.compiler.nodes.FixedWithNextNode read) {
        for (Node usage : read.usages().snapshot()) {
            if (usage instanceof PiNode pi && !pi.hasUsages()) {
                pi.safeDelete();
            }
        }
        if (read.isAlive() && !read.hasUsages()) {
            graph.removeFixed(read);
        }
    }

    private void replace(StructuredGraph graph, CoreProviders context, LoadFieldNode read, int capture, CapturedValue value) {
        ValueShape shape = value.shape();
        Class<?> fieldType = value.declaredType();
        switch (shape) {
            case ValueShape.Primitive primitive -> {
                requireFieldType(read, value, primitive.kind().toJavaClass());
                graph.replaceFixedWithFloating(read, parameter(graph, capture, primitive.kind()));
            }
            case ValueShape.BoxedPrimitive boxed -> {
                if (!fieldType.isAssignableFrom(boxed.boxClass())) {
                    throw mismatch(read, value);
                }
                ResolvedJavaType boxType = context.getMetaAccess().lookupJavaType(boxed.boxClass());
                // a null box: its null checks test the capture's length argument, -1 for null (as for arrays)
                replaceNullChecks(graph, read, capture);
                BoxNode box = graph.add(BoxNode.create(parameter(graph, capture, boxed.kind()), boxType, boxed.kind()));
                graph.replaceFixedWithFixed(read, box);
            }
            case ValueShape.PrimitiveArray array -> {
                requireFieldType(read, value, array.arrayClass());
                ParameterNode arrayParameter = inputs.arrayCapture(graph, capture, context.getMetaAccess().lookupJavaType(array.arrayClass()));
                graph.replaceFixedWithFloating(read, arrayParameter);
                replaceNullChecks(graph, arrayParameter, capture);
                replaceLengths(graph, arrayParameter, capture);
            }
            case ValueShape.RectangularArray matrix -> {
                requireFieldType(read, value, matrix.arrayClass());
                ParameterNode rows = inputs.arrayCapture(graph, capture, context.getMetaAccess().lookupJavaType(matrix.rowClass()));
                replaceMatrixUses(graph, read, capture, matrix, rows, value);
                removeUnused(graph, read);
            }
            case ValueShape.ElementReader reader -> {
                if (!value.path().isEmpty()) {
                    throw mismatch(read, value);
                }
                // ElementReaderCallsToAccessesPhase replaced its get and length calls; nothing else may use it.
                if (read.hasUsages()) {
                    throw KernelBailoutException.at(read.usages().first(), ElementReaderCallsToAccessesPhase.otherUse(reader, value, read.usages().first()));
                }
                graph.removeFixed(read);
            }
            case ValueShape.Tuple tuple -> throw mismatch(read, value);
        }
    }

    /**
     * The uses of a captured 2-D array ({@code matrix}: the field read or a Pi of it): its null
     * checks test the row count parameter (-1 for null), {@code m.length} reads it, and each row
     * {@code m[i]} is replaced by its place in the flat parameter {@code rows}.
     */
    private void replaceMatrixUses(StructuredGraph graph, ValueNode matrix, int capture, ValueShape.RectangularArray shape, ParameterNode rows, CapturedValue value) {
        for (Node usage : matrix.usages().snapshot()) {
            if (usage instanceof IsNullNode isNull) {
                isNull.replaceAtUsagesAndDelete(negativeLength(graph, capture));
            } else if (usage instanceof ArrayLengthNode length) {
                graph.replaceFixedWithFloating(length, inputs.arrayCaptureLengthOfPresentArray(graph, capture));
            } else if (usage instanceof LoadIndexedNode row && row.array() == matrix) {
                // m[i] comes after Java's checks of m and i; its elements start at i * rowLength
                ValueNode rowLength = inputs.arrayCaptureRowLength(graph, capture);
                ValueNode start = graph.addOrUniqueWithInputs(MulNode.create(row.index(), rowLength, NodeView.DEFAULT));
                replaceRowUses(graph, row, start, capture, shape, rows, value);
                removeUnused(graph, row);
            } else if (usage instanceof PiNode pi) {
                replaceMatrixUses(graph, pi, capture, shape, rows, value);
            } else if (!(usage instanceof FrameState)) {
                throw otherMatrixUse(usage, value);
            }
        }
    }

    /**
     * The uses of one row {@code m[i]} ({@code row}: the row load or a Pi of it), whose elements
     * start at {@code start} in the flat parameter: a row is never null (the runtime sends only
     * rectangular arrays), {@code m[i].length} is the row length parameter, {@code m[i][j]} the
     * load of element {@code start + j}, after Java's check of {@code j}, which stays.
     */
    private void replaceRowUses(StructuredGraph graph, ValueNode row, ValueNode start, int capture, ValueShape.RectangularArray shape, ParameterNode rows, CapturedValue value) {
        for (Node usage : row.usages().snapshot()) {
            if (usage instanceof IsNullNode isNull) {
                isNull.replaceAtUsagesAndDelete(LogicConstantNode.contradiction(graph));
            } else if (usage instanceof ArrayLengthNode length) {
                graph.replaceFixedWithFloating(length, inputs.arrayCaptureRowLength(graph, capture));
            } else if (usage instanceof LoadIndexedNode element && element.array() == row) {
                ValueNode index = graph.addOrUniqueWithInputs(AddNode.create(start, element.index(), NodeView.DEFAULT));
                LoadIndexedNode flat = graph.add(new LoadIndexedNode(graph.getAssumptions(), rows, index, null, shape.elementKind()));
                graph.replaceFixedWithFixed(element, flat);
            } else if (usage instanceof StoreIndexedNode store && store.array() == row) {
                throw KernelBailoutException.at(store, "the function writes to a row of " + value.description()
                                + "; captured arrays are read-only on OpenCL (the write would not reach the Java array)");
            } else if (usage instanceof PiNode pi) {
                replaceRowUses(graph, pi, start, capture, shape, rows, value);
            } else if (!(usage instanceof FrameState)) {
                throw otherMatrixUse(usage, value);
            }
        }
    }

    private KernelBailoutException otherMatrixUse(Node usage, CapturedValue value) {
        return KernelBailoutException.at(usage, subject + " uses " + value.description() + " (a 2-D array) other than by m[i][j], m.length and m[i].length ("
                        + jpai.compiler.JavaConstructs.describe(usage) + "); kernels have its elements in one buffer, not its row objects");
    }

    private LogicNode negativeLength(StructuredGraph graph, int capture) {
        return graph.addOrUniqueWithInputs(IntegerLessThanNode.create(inputs.arrayCaptureLength(graph, capture), ConstantNode.forInt(0, graph), NodeView.DEFAULT));
    }

    private ParameterNode parameter(StructuredGraph graph, int capture, JavaKind kind) {
        ParameterNode parameter = inputs.capture(capture);
        if (parameter == null) {
            parameter = graph.addWithoutUnique(new ParameterNode(KernelInputs.captureIndex(capture, 0), StampPair.createSingle(StampFactory.forKind(kind))));
            inputs.setCapture(capture, parameter);
        }
        return parameter;
    }

    /**
     * Every null check of the captured array tests its length parameter, which the runtime sets to
     * -1 for a null array: so a null capture reaches the kernel, and the element that dereferences
     * it leaves through the null check's exit (Java then throws its own exception there), while
     * elements that never touch it get their results.
     */
    private void replaceNullChecks(StructuredGraph graph, ValueNode array, int capture) {
        for (Node usage : array.usages().snapshot()) {
            if (usage instanceof IsNullNode isNull) {
                isNull.replaceAtUsagesAndDelete(negativeLength(graph, capture));
            } else if (usage instanceof PiNode pi) {
                replaceNullChecks(graph, pi, capture);
            }
        }
    }

    /** Every {@code array.length} on the captured array reads the length parameter. */
    private void replaceLengths(StructuredGraph graph, ValueNode array, int capture) {
        for (Node usage : array.usages().snapshot()) {
            if (usage instanceof ArrayLengthNode length) {
                graph.replaceFixedWithFloating(length, inputs.arrayCaptureLengthOfPresentArray(graph, capture));
            } else if (usage instanceof PiNode pi) {
                replaceLengths(graph, pi, capture);
            }
        }
    }

    private void collectReads(ValueNode value, List<LoadFieldNode> reads) {
        for (Node usage : value.usages().snapshot()) {
            if (usage instanceof LoadFieldNode read && read.object() == value) {
                reads.add(read);
            } else if (usage instanceof PiNode pi) {
                collectReads(pi, reads);
            } else if (!(usage instanceof FrameState)) {
                throw new KernelBailoutException(subject.equals("the lambda") ? "the lambda uses its own functional object (" + jpai.compiler.JavaConstructs.describe(usage) + "), not only its captured values"
                                : subject + " uses this other than by reading its fields (" + jpai.compiler.JavaConstructs.describe(usage) + "); a kernel has the values of its fields, not the object", lambda.location());
            }
        }
    }

    private KernelBailoutException unlisted(LoadFieldNode read) {
        ResolvedJavaMethod body = lambda.bodyMethod();
        ResolvedJavaType fieldType = read.field().getType() instanceof ResolvedJavaType resolved ? resolved : null;
        if (!subject.equals("the lambda")) {
            return new KernelBailoutException(subject + " reads the field " + read.field().getName() + " of this, of type " + read.field().getType().toJavaName(false)
                            + ", which the runtime does not pass to OpenCL (primitives, their wrappers, primitive arrays and rectangular 2-D primitive arrays, two objects deep at most)",
                            lambda.location());
        }
        if (!body.isStatic() && fieldType != null && fieldType.equals(body.getDeclaringClass())) {
            String owner = body.getDeclaringClass().toJavaName(false);
            return new KernelBailoutException("the lambda captures `this` (uses a field or method of " + owner + "); copy the field into a local variable first", lambda.location());
        }
        return new KernelBailoutException("the lambda captures a value of type " + read.field().getType().toJavaName(false)
                        + " (field " + read.field().getName() + ") that the runtime does not pass to OpenCL", lambda.location());
    }

    private static void requireFieldType(LoadFieldNode read, CapturedValue value, Class<?> expected) {
        if (value.declaredType() != expected) {
            throw mismatch(read, value);
        }
    }

    private static KernelBailoutException mismatch(LoadFieldNode read, CapturedValue value) {
        return KernelBailoutException.at(read, value.description() + " of type " + value.declaredType().getSimpleName()
                        + " does not hold a " + value.shape());
    }
}
