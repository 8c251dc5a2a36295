package jpai;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a static method whose {@link Parallel} loop JPAI runs on the OpenCL device, when the JVM was
 * started with JPAI's agent ({@code -javaagent:jpai-agent.jar}). Without the agent the method is an
 * ordinary Java method.
 *
 * <pre>
 * &#64;Accelerate
 * static void saxpy(float alpha, float[] x, float[] y) {
 *     for (&#64;Parallel int i = 0; i &lt; y.length; i++) {
 *         y[i] = alpha * x[i] + y[i];
 *     }
 * }
 * </pre>
 *
 * <p>What the method may be: static; its parameters primitives and primitive arrays; its body an
 * optional computation without side effects, then one loop {@code for (@Parallel int i = a; i < b; i++)}
 * whose bounds are constants, {@code int} parameters or lengths of array parameters, then
 * {@code return} (of the {@link Reduce} variable, for a reduction). The agent keeps the method's
 * original body, and a call runs that body in Java whenever the device cannot give Java's exact
 * result: the method does not compile to a kernel (say why with {@code -Djpai.explain=true}), no
 * device, a null or aliased array argument, or an iteration that meets a Java exception (the call then
 * runs in Java from the start, which throws Java's exception at Java's element, after Java's writes).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Accelerate {
}
