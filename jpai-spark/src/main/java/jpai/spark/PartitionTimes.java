package jpai.spark;

/**
 * Where one partition's task spent its time in JPAI ({@link JpaiSpark#lastPartitionTimes()}): laying
 * the partition's elements out as a {@code PArray} (reading Spark's iterator, one primitive column per
 * component, one copy into off-heap memory), the apply (kernel, transfers, or Java threads), and
 * reading the results back into Spark's elements. Spark's own time (its iterators, serialisation,
 * shuffles) is outside.
 *
 * @param device where the apply ran, as its {@code ApplyProfile} says (a device's name, or "Java threads")
 */
public record PartitionTimes(long elements, long layoutNanos, long applyNanos, long resultNanos, String device) {
}
