package jpai.ocl;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import jpai.compiler.MathFunctions;

/**
 * For test classes about OpenCL's built-in math ({@code @ExtendWith(OpenCLBuiltInMath.class)}):
 * their kernels compute {@code Math}'s functions with the built-ins, as with
 * {@code -Djpai.math=opencl}; the property is restored after the class.
 */
final class OpenCLBuiltInMath implements BeforeAllCallback, AfterAllCallback {

    private String before;

    @Override
    public void beforeAll(ExtensionContext context) {
        before = System.getProperty(MathFunctions.PROPERTY);
        System.setProperty(MathFunctions.PROPERTY, MathFunctions.OPENCL_BUILTINS.optionValue());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (before == null) {
            System.clearProperty(MathFunctions.PROPERTY);
        } else {
            System.setProperty(MathFunctions.PROPERTY, before);
        }
    }
}
