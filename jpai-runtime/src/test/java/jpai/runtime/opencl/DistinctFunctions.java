package jpai.runtime.opencl;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_float;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Function;

/**
 * Functions that compile to distinct kernels, made cheaply: {@code x -> x * k + 1f} for a different
 * {@code k} each, each its own hidden class (as a lambda is) with {@code k} a constant of its
 * bytecode. Lambdas written in source that differ only in a captured value share one kernel (the
 * value is an argument), so they would not fill the program cache.
 */
final class DistinctFunctions {

    private static final ClassDesc FLOAT = ClassDesc.of("java.lang.Float");
    private static final ClassDesc FUNCTION = ClassDesc.of("java.util.function.Function");

    private DistinctFunctions() {
    }

    /** The factor of function {@code index}: distinct floats, exactly representable. */
    static float factor(int index) {
        return 1.0f + index / 1024.0f;
    }

    /** {@code x -> x * factor(index) + 1f}, as a new hidden class. */
    @SuppressWarnings("unchecked")
    static Function<Float, Float> of(int index) {
        float k = factor(index);
        byte[] bytes = ClassFile.of().build(ClassDesc.of(DistinctFunctions.class.getPackageName() + ".Generated"), type -> type
                .withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC)
                .withInterfaceSymbols(FUNCTION)
                .withMethodBody("<init>", MethodTypeDesc.of(CD_void), ClassFile.ACC_PUBLIC,
                        code -> code.aload(0).invokespecial(CD_Object, "<init>", MethodTypeDesc.of(CD_void)).return_())
                .withMethodBody("apply", MethodTypeDesc.of(CD_Object, CD_Object), ClassFile.ACC_PUBLIC, code -> code
                        .aload(1).checkcast(FLOAT).invokevirtual(FLOAT, "floatValue", MethodTypeDesc.of(CD_float))
                        .ldc(k).fmul().fconst_1().fadd()
                        .invokestatic(FLOAT, "valueOf", MethodTypeDesc.of(FLOAT, CD_float)).areturn()));
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup().defineHiddenClass(bytes, true);
            return (Function<Float, Float>) lookup.findConstructor(lookup.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (Throwable e) {
            throw new AssertionError("could not define generated function " + index, e);
        }
    }
}
