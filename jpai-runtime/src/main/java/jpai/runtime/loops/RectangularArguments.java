package jpai.runtime.loops;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Two-dimensional primitive array arguments of accelerated methods ({@code float[][]}, ...): a
 * kernel has one such array as one buffer holding its rows one after the other, so a call runs on
 * the device only when the array is rectangular (every row there, all of one length) and no row
 * object is reachable twice among the call's arrays (in Java a write through {@code c[0]} would then
 * also be a write of {@code c[1]} or of another argument, which one buffer per argument cannot
 * show). The rows are copied into the buffer at each call, as a one-dimensional array is, and a
 * written one's buffer is copied back into each row only when no iteration exited.
 */
final class RectangularArguments {

    private RectangularArguments() {
    }

    /**
     * Why 2-D array {@code rows} ({@code which}: "its argument 3", "the field w of this") cannot be
     * one buffer, or null; records its rows in {@code seen} (every array of the call, by identity,
     * with what holds it) to find a row that is also another row or argument.
     */
    static String problem(String which, Object[] rows, Map<Object, String> seen) {
        String type = rows.getClass().getComponentType().getComponentType().getName() + "[][]";
        int rowLength = 0;
        for (int i = 0; i < rows.length; i++) {
            Object row = rows[i];
            if (row == null) {
                return "row " + i + " of " + which + " (a " + type + ") is null, so the array is not rectangular and cannot be one buffer on the device";
            }
            int length = Array.getLength(row);
            if (i == 0) {
                rowLength = length;
            } else if (length != rowLength) {
                return "the rows of " + which + " (a " + type + ") have different lengths (row 0 has " + rowLength + " elements, row " + i + " has " + length
                                + "), so the array is not rectangular and cannot be one buffer on the device";
            }
            String other = seen.putIfAbsent(row, which);
            if (other != null) {
                return "row " + i + " of " + which + " is also " + (other.equals(which) ? "another of its rows" : "in " + other)
                                + ", so a write through one would be a write through the other, which one buffer per argument cannot show";
            }
        }
        long elements = (long) rows.length * rowLength;
        if (elements > Integer.MAX_VALUE || elements * elementBytes(rows) > Integer.MAX_VALUE) {
            return which + " (a " + type + ") has " + elements + " elements, more than one buffer of a kernel's int index holds";
        }
        return null;
    }

    /** A new map for {@link #problem}: identity, not equality, of arrays. */
    static Map<Object, String> identities() {
        return new IdentityHashMap<>();
    }

    /** The elements of rectangular {@code rows}, one row after the other, in a new 1-D array of the element type. */
    static Object flatten(Object[] rows) {
        int rowLength = rows.length == 0 ? 0 : Array.getLength(rows[0]);
        Object flat = Array.newInstance(rows.getClass().getComponentType().getComponentType(), rows.length * rowLength);
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(rows[i], 0, flat, i * rowLength, rowLength);
        }
        return flat;
    }

    /** The row length the kernel takes: that of row 0, or 0 for an array of no rows. */
    static int rowLength(Object[] rows) {
        return rows.length == 0 ? 0 : Array.getLength(rows[0]);
    }

    /** Copies {@code readBack} (the device copy of {@link #flatten}'s buffer) into each of {@code rows}. */
    static void copyInto(ByteBuffer readBack, Object[] rows) {
        int rowLength = rowLength(rows);
        Object flat = Array.newInstance(rows.getClass().getComponentType().getComponentType(), rows.length * rowLength);
        ArrayReadBack.copyInto(readBack, flat);
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(flat, i * rowLength, rows[i], 0, rowLength);
        }
    }

    private static long elementBytes(Object[] rows) {
        Class<?> element = rows.getClass().getComponentType().getComponentType();
        return element == long.class || element == double.class ? 8 : element == int.class || element == float.class ? 4 : element == short.class || element == char.class ? 2 : 1;
    }
}
