package jpai.agent;

import java.lang.classfile.AccessFlags;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.MethodElement;
import java.lang.classfile.MethodModel;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jpai.agent.AcceleratedMethodFinder.AcceleratedMethod;

/**
 * Rewrites the {@code @Accelerate} methods of one class. Each one, {@code m}, static or not, becomes two:
 *
 * <ul>
 * <li>{@code jpai$original$m}: private, synthetic, static if {@code m} is, with {@code m}'s code and debug
 * attributes unchanged: the Java fallback, and what the runtime compiles;</li>
 * <li>{@code m} itself, with its flags and annotations, whose new body is
 *
 * <pre>
 * Object result = AcceleratedMethods.invoke(Owner.class, "m", "(descriptor)", "marked locals", new Object[] {[this,] arguments...});
 * if (result != AcceleratedMethods.NOT_RUN) return (unboxed) result;
 * return [this.]jpai$original$m(arguments...);
 * </pre></li>
 * </ul>
 *
 * An instance method's receiver is the first element of the array the runtime gets (its slot 0, as
 * the marked locals' slots count it). Everything else in the class is copied as it is.
 */
final class AcceleratedMethodRewriter {

    /** The prefix of the original body's name; the compiler names methods without it (jpai.compiler.LoopDescription). */
    static final String ORIGINAL_PREFIX = "jpai$original$";

    private static final ClassDesc RUNTIME = ClassDesc.of("jpai.runtime.loops.AcceleratedMethods");
    private static final MethodTypeDesc INVOKE = MethodTypeDesc.of(ConstantDescs.CD_Object, ConstantDescs.CD_Class, ConstantDescs.CD_String, ConstantDescs.CD_String,
                    ConstantDescs.CD_String, ConstantDescs.CD_Object.arrayType());

    private AcceleratedMethodRewriter() {
    }

    /** The class file with {@code methods} (its {@code @Accelerate} methods that have code, of a class that is no interface) rewritten. */
    static byte[] rewrite(ClassModel model, List<AcceleratedMethod> methods) {
        Map<MethodModel, AcceleratedMethod> byModel = new HashMap<>();
        for (AcceleratedMethod method : methods) {
            byModel.put(method.method(), method);
        }
        ClassDesc owner = model.thisClass().asSymbol();
        ClassTransform transform = (builder, element) -> {
            AcceleratedMethod accelerated = element instanceof MethodModel method ? byModel.get(method) : null;
            if (accelerated == null) {
                builder.with(element);
                return;
            }
            MethodModel method = accelerated.method();
            int originalFlags = (method.flags().flagsMask() & ~(ClassFile.ACC_PUBLIC | ClassFile.ACC_PROTECTED)) | ClassFile.ACC_PRIVATE | ClassFile.ACC_SYNTHETIC;
            builder.withMethod(ORIGINAL_PREFIX + accelerated.name(), method.methodTypeSymbol(), originalFlags, original -> {
                for (MethodElement part : method) {
                    if (!(part instanceof AccessFlags) && !isMethodAnnotations(part)) {
                        original.with(part);
                    }
                }
            });
            builder.withMethod(method.methodName(), method.methodType(), method.flags().flagsMask(), replacement -> {
                for (MethodElement part : method) {
                    if (!(part instanceof AccessFlags) && !(part instanceof java.lang.classfile.CodeModel)) {
                        replacement.with(part); // annotations, signature, exceptions, parameter names
                    }
                }
                replacement.withCode(code -> offloadingBody(code, owner, accelerated));
            });
        };
        return ClassFile.of().transformClass(model, transform);
    }

    private static boolean isMethodAnnotations(MethodElement part) {
        return part instanceof java.lang.classfile.attribute.RuntimeVisibleAnnotationsAttribute
                        || part instanceof java.lang.classfile.attribute.RuntimeInvisibleAnnotationsAttribute;
    }

    /** The new body: ask the runtime, return its result, or call the original body. */
    private static void offloadingBody(CodeBuilder code, ClassDesc owner, AcceleratedMethod accelerated) {
        MethodTypeDesc type = accelerated.method().methodTypeSymbol();
        int arguments = type.parameterCount();
        int receiver = accelerated.isStatic() ? 0 : 1;
        code.loadConstant(arguments + receiver);
        code.anewarray(ConstantDescs.CD_Object);
        if (receiver == 1) {
            code.dup();
            code.loadConstant(0);
            code.aload(0);
            code.aastore();
        }
        int slot = receiver;
        for (int k = 0; k < arguments; k++) {
            TypeKind kind = TypeKind.from(type.parameterType(k));
            code.dup();
            code.loadConstant(k + receiver);
            code.loadLocal(kind, slot);
            box(code, kind);
            code.aastore();
            slot += kind.slotSize();
        }
        int argumentArray = code.allocateLocal(TypeKind.REFERENCE);
        code.astore(argumentArray);
        code.ldc(owner);
        code.loadConstant(accelerated.name());
        code.loadConstant(accelerated.descriptor());
        code.loadConstant(MarkedLocal.encode(accelerated.locals()));
        code.aload(argumentArray);
        code.invokestatic(RUNTIME, "invoke", INVOKE);
        code.dup();
        code.getstatic(RUNTIME, "NOT_RUN", ConstantDescs.CD_Object);
        Label fallback = code.newLabel();
        code.if_acmpeq(fallback);
        TypeKind result = TypeKind.from(type.returnType());
        if (result == TypeKind.VOID) {
            code.pop();
        } else {
            unbox(code, result, type.returnType());
        }
        code.return_(result);
        code.labelBinding(fallback);
        code.pop();
        if (receiver == 1) {
            code.aload(0);
        }
        slot = receiver;
        for (int k = 0; k < arguments; k++) {
            TypeKind kind = TypeKind.from(type.parameterType(k));
            code.loadLocal(kind, slot);
            slot += kind.slotSize();
        }
        if (receiver == 1) {
            code.invokespecial(owner, ORIGINAL_PREFIX + accelerated.name(), type); // private: no override can intercept it
        } else {
            code.invokestatic(owner, ORIGINAL_PREFIX + accelerated.name(), type);
        }
        code.return_(result);
    }

    private static void box(CodeBuilder code, TypeKind kind) {
        ClassDesc box = boxOf(kind);
        if (box != null) {
            code.invokestatic(box, "valueOf", MethodTypeDesc.of(box, kind.upperBound()));
        }
    }

    private static void unbox(CodeBuilder code, TypeKind kind, ClassDesc declared) {
        ClassDesc box = boxOf(kind);
        if (box == null) {
            code.checkcast(declared);
            return;
        }
        code.checkcast(box);
        code.invokevirtual(box, kind.upperBound().displayName() + "Value", MethodTypeDesc.of(kind.upperBound()));
    }

    /** The wrapper class of a primitive kind, or null for a reference. */
    private static ClassDesc boxOf(TypeKind kind) {
        return switch (kind) {
            case BOOLEAN -> ConstantDescs.CD_Boolean;
            case BYTE -> ConstantDescs.CD_Byte;
            case CHAR -> ConstantDescs.CD_Character;
            case SHORT -> ConstantDescs.CD_Short;
            case INT -> ConstantDescs.CD_Integer;
            case LONG -> ConstantDescs.CD_Long;
            case FLOAT -> ConstantDescs.CD_Float;
            case DOUBLE -> ConstantDescs.CD_Double;
            default -> null;
        };
    }

    /** Whether {@code method} has the attributes the rewriting copies; for the transformer's checks. */
    static boolean hasCode(MethodModel method) {
        return method.findAttribute(Attributes.code()).isPresent() && !method.flags().has(AccessFlag.ABSTRACT) && !method.flags().has(AccessFlag.NATIVE);
    }
}
