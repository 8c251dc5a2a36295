package jpai;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the local variable a {@link Parallel} loop accumulates into, in an {@link Accelerate}
 * method, which then returns it:
 *
 * <pre>
 * &#64;Reduce int sum = 0;
 * for (&#64;Parallel int i = 0; i &lt; a.length; i++) {
 *     sum += a[i] * a[i];
 * }
 * return sum;
 * </pre>
 *
 * <p>On the device: {@code int} and {@code long} variables accumulated with {@code +}, {@code *},
 * {@code &}, {@code |}, {@code ^}, {@code Math.min} or {@code Math.max}, each iteration once at the
 * end of its body. These operators are associative and commutative on integers, so the device's
 * combining order (JPAI's one combining tree, docs/java-semantics.md "Reductions") gives exactly the
 * loop's result. A {@code float} or {@code double} sum or product is not: its bits depend on the order
 * of the additions, and the device's order is not the loop's; such a method runs in Java as written
 * (the reason is said under {@code -Djpai.explain=true}), so its result is always the loop's.
 *
 * <p>{@code @Reduce(reassociate = true)} on a {@code float} or {@code double} sum or product says
 * that any association of the additions (or multiplications) is acceptable: on the device the
 * result is then {@code initial + T}, {@code T} the iterations' contributions (in loop order)
 * combined by JPAI's one combining tree, whose bits are the same on every device and work-group
 * size (docs/java-semantics.md "Reductions", as {@code AF.reduce} gives them). When the call runs in
 * Java instead (no OpenCL device, or a reason {@code -Djpai.explain=true} says), the method runs as
 * written, and its result has the loop's sequential bits, which may differ from the tree's in the
 * last places.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE_USE)
public @interface Reduce {

    /**
     * Whether a {@code float} or {@code double} sum or product may be computed in another association
     * than the loop's (JPAI's combining tree on the device); ignored for integer variables, whose
     * results never depend on it.
     */
    boolean reassociate() default false;
}
