package jpai.runtime.opencl;

import org.jocl.cl_mem;

/**
 * One block of device memory from a {@link DeviceBufferPool}: the {@code cl_mem} and how many bytes
 * it holds (its size class, at least what was asked for). Immutable; the pool hands each buffer to
 * one owner at a time.
 *
 * @param memory   the OpenCL buffer, {@code CL_MEM_READ_WRITE}
 * @param capacity its size in bytes
 */
record DeviceBuffer(cl_mem memory, long capacity) {
}
