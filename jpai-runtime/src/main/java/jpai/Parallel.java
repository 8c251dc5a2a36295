package jpai;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the variable of a loop whose iterations are independent, in an {@link Accelerate} method:
 * {@code for (@Parallel int i = 0; i < n; i++)}. Each iteration becomes one OpenCL work-item.
 *
 * <p>A type annotation ({@code TYPE_USE}), because javac keeps only those of a local variable in the
 * class file (with the variable's slot and bytecode range, which the agent reads); a declaration
 * annotation on a local is lost. The loop must count up by one. Iterations may write any array
 * element the others do not touch; where the compiler sees one iteration read what another writes (a
 * write to {@code a[i + 1]} and a read of {@code a[i]}, or any array both written and read at
 * different indices) it refuses the loop, warns once, and the method runs in Java.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE_USE)
public @interface Parallel {
}
