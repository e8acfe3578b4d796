// The thread pool behind the pthreadpool C API (<pthreadpool.h>), implemented in
// thread_pool.cc for our kernels and for Debian's XNNPACK alike.
//
// Why not Debian's libpthreadpool (a 2021-05 snapshot): its waits spin on `pause` for a
// million iterations (milliseconds) before sleeping, in the caller and in every worker,
// and the caller waits until every worker has checked in, claimed work or not. With more
// threads than free cores (--num_threads=4 on two cores, or two 2-thread runs sharing
// them) each spinner holds a core the thread it waits for needs: face_detection_short_range
// went from 1.9 ms to 500 ms per inference. TFLite bundles a newer pool that yields; Debian
// has none. This one keeps pthreadpool's interface and semantics (every index visited once,
// tiles clipped at the range end, flags honoured) and differs in how it waits:
//  - work is dealt as one contiguous range per thread, as pthreadpool deals it, and a
//    thread that has finished its own range takes units from the back of the others', so
//    the caller waits only for units a thread is running, never for a worker that has not
//    woken up;
//  - a short `pause` spin, then sched_yield() (a waiting thread hands its core to whoever
//    needs it), then a futex after about a millisecond.
// Because the executable defines the pthreadpool_* symbols, the dynamic linker binds
// libXNNPACK's references to them too (libpthreadpool is loaded as its dependency but
// shadowed); xnnpack_delegate_test checks that XNNPACK's calls reach this pool.
#ifndef TFLITE_INSPECT_LIB_RUNTIME_THREAD_POOL_H_
#define TFLITE_INSPECT_LIB_RUNTIME_THREAD_POOL_H_

#include <pthreadpool.h>

#include <cstddef>

namespace tflite {
namespace thread_pool {

// CPUs this process may run on (its affinity mask), at least 1.
int AvailableCpus();

// Parallel calls this pool has served (the inline ones of a 1-thread pool included).
size_t CallsServed(pthreadpool_t pool);

// Tests only: paused workers take no work, so every call completes on the caller alone.
void PauseWorkersForTest(pthreadpool_t pool, bool paused);

}  // namespace thread_pool
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_RUNTIME_THREAD_POOL_H_
