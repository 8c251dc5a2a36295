package jpai.runtime;

import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.profile.Profiler;

/**
 * {@code AF.copyToDevice()} and {@code AF.copyToHost()}: move the input's data now, instead of when
 * a kernel or the host first needs it, and return the input as a view.
 */
public final class CopyFunction<T> implements ArrayFunction<T, T> {

    /** Which way the data goes. */
    public enum Direction {
        TO_DEVICE, TO_HOST
    }

    private final Direction direction;

    public CopyFunction(Direction direction) {
        this.direction = direction;
    }

    @Override
    public PArray<T> apply(PArray<T> input) {
        Inputs.check(input, toString());
        Profiler.begin(toString());
        try {
            for (int i = 0; i < input.componentCount(); i++) {
                ComponentBuffer buffer = PArrayStorage.buffer(input, i);
                switch (direction) {
                    case TO_HOST -> DataMovement.toHost(buffer);
                    case TO_DEVICE -> DataMovement.toDevice(buffer);
                }
            }
            return input.view();
        } finally {
            Profiler.end();
        }
    }

    @Override
    public String toString() {
        return direction == Direction.TO_DEVICE ? "copyToDevice" : "copyToHost";
    }
}
