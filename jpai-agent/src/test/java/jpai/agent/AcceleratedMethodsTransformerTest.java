package jpai.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.classfile.Annotation;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.RuntimeVisibleAnnotationsAttribute;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The agent's class rewriting, on class files made here (this module has no JPAI annotations to compile against). */
class AcceleratedMethodsTransformerTest {

    private static final ClassDesc ACCELERATE = ClassDesc.ofDescriptor(AcceleratedMethodFinder.ACCELERATE_DESCRIPTOR);

    @Test
    void aClassWithoutAnnotationsIsLeftUnchanged() throws IOException {
        byte[] bytes;
        try (InputStream in = RequiredExports.class.getResourceAsStream("RequiredExports.class")) {
            bytes = in.readAllBytes();
        }
        assertNull(new AcceleratedMethodsTransformer().transform(getClass().getClassLoader(), "jpai/agent/RequiredExports", null, null, bytes));
        // the annotation's name in the constant pool but on no method: parsed, and still unchanged
        byte[] mentioning = classWith(false, true);
        assertNull(new AcceleratedMethodsTransformer().transform(getClass().getClassLoader(), "p/Mentions", null, null, mentioning));
    }

    @Test
    void anAcceleratedStaticMethodGetsANewBodyAndKeepsItsOriginal() {
        byte[] rewritten = new AcceleratedMethodsTransformer().transform(getClass().getClassLoader(), "p/Accelerated", null, null, classWith(true, true));
        assertNotNull(rewritten);
        ClassModel model = ClassFile.of().parse(rewritten);
        List<String> names = model.methods().stream().map(m -> m.methodName().stringValue()).toList();
        assertEquals(List.of("jpai$original$twice", "twice"), names);
        MethodModel original = model.methods().get(0);
        MethodModel replacement = model.methods().get(1);
        assertTrue(AcceleratedMethodFinder.isAccelerated(replacement), "the method keeps its annotation");
        assertTrue(original.flags().has(java.lang.reflect.AccessFlag.PRIVATE) && original.flags().has(java.lang.reflect.AccessFlag.SYNTHETIC));
        String code = replacement.code().orElseThrow().elementStream().map(Object::toString).reduce("", String::concat);
        assertTrue(code.contains("jpai/runtime/loops/AcceleratedMethods") && code.contains("jpai$original$twice"), code);
        // the rewritten class verifies: the JVM loads and links it (its runtime class is not on this
        // module's class path, so the new body is not run here; the test module runs it)
        assertEquals(0, ClassFile.of().verify(rewritten).size(), () -> ClassFile.of().verify(rewritten).toString());
    }

    @Test
    void anInstanceMethodGetsANewBodyAndKeepsItsOriginalAsAPrivateInstanceMethod() {
        byte[] rewritten = new AcceleratedMethodsTransformer().transform(getClass().getClassLoader(), "p/Instance", null, null, classWith(true, false));
        assertNotNull(rewritten);
        ClassModel model = ClassFile.of().parse(rewritten);
        MethodModel original = model.methods().get(0);
        MethodModel replacement = model.methods().get(1);
        assertEquals("jpai$original$twice", original.methodName().stringValue());
        assertTrue(original.flags().has(java.lang.reflect.AccessFlag.PRIVATE) && !original.flags().has(java.lang.reflect.AccessFlag.STATIC), "the original stays an instance method");
        String code = replacement.code().orElseThrow().elementStream().map(Object::toString).reduce("", String::concat);
        assertTrue(code.contains("InvokeSpecial") || code.contains("invokespecial") || code.contains("INVOKESPECIAL"), "the original body is called without virtual dispatch: " + code);
        assertEquals(0, ClassFile.of().verify(rewritten).size(), () -> ClassFile.of().verify(rewritten).toString());
    }

    @Test
    void aBrokenClassFileNeverThrowsOutOfTheTransformer() {
        byte[] garbage = ("garbage " + AcceleratedMethodFinder.ACCELERATE_DESCRIPTOR).getBytes(StandardCharsets.UTF_8);
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            assertNull(new AcceleratedMethodsTransformer().transform(getClass().getClassLoader(), "p/Broken", null, null, garbage));
        } finally {
            System.setErr(err);
        }
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("could not rewrite the @Accelerate methods of p.Broken"), said.toString(StandardCharsets.UTF_8));
    }

    /** A class with one method {@code int twice(int)}, annotated {@code @Accelerate} or not, static or not. */
    private static byte[] classWith(boolean annotated, boolean isStatic) {
        ClassDesc self = ClassDesc.of("p.Accelerated");
        return ClassFile.of().build(self, clb -> {
            clb.withMethod("twice", MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_int), ClassFile.ACC_PUBLIC | (isStatic ? ClassFile.ACC_STATIC : 0), mb -> {
                if (annotated) {
                    mb.with(RuntimeVisibleAnnotationsAttribute.of(Annotation.of(ACCELERATE)));
                }
                mb.withCode(cb -> {
                    int slot = isStatic ? 0 : 1;
                    cb.iload(slot).iload(slot).iadd().ireturn();
                });
            });
            if (!annotated) {
                // the descriptor in the constant pool, on no method
                clb.with(RuntimeVisibleAnnotationsAttribute.of(Annotation.of(ClassDesc.of("p.Other"), java.lang.classfile.AnnotationElement.ofString("name", AcceleratedMethodFinder.ACCELERATE_DESCRIPTOR))));
            }
        });
    }
}
