package jpai.ocl;

/**
 * The two status words every generated kernel ends with ({@code __global int *jpai_status}, zeroed
 * before the launch): word 0 is a {@link DeoptReason} code, nonzero once a work-item exited; word 1
 * holds the element that exited, as {@code element + Integer.MIN_VALUE} (the element saturated to
 * {@code INT_MAX}), so that the zero the word starts with is above every element it can hold and a
 * map kernel can keep the lowest exiting element with one {@code atomic_min}. Read the element with
 * {@link #element(int, int)}.
 */
public final class KernelStatus {

    private KernelStatus() {
    }

    /**
     * The element of an exit from the two status words as the kernel left them: 0 when no
     * work-item exited ({@code reasonWord == 0}).
     */
    public static int element(int reasonWord, int elementWord) {
        return reasonWord == 0 ? 0 : elementWord - Integer.MIN_VALUE;
    }
}
