package jpai.compiler.plugin;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;

import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.tiers.HighTierContext;

/**
 * A Graal phase class named in {@code -Djpai.phases} as {@code point:class}, as a plugin: each
 * compilation gets a new instance from its public no-argument constructor. Named after the class.
 */
final class PhaseClassPlugin implements PhasePlugin {

    private final PipelinePoint point;
    private final Constructor<? extends BasePhase<? super HighTierContext>> constructor;

    PhaseClassPlugin(PipelinePoint point, Constructor<? extends BasePhase<? super HighTierContext>> constructor) {
        this.point = point;
        this.constructor = constructor;
    }

    @Override
    public String name() {
        return constructor.getDeclaringClass().getName();
    }

    @Override
    public PipelinePoint point() {
        return point;
    }

    @Override
    public BasePhase<? super HighTierContext> newPhase() {
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("the constructor of " + name() + " threw " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot instantiate " + name() + ": " + e, e);
        }
    }
}
