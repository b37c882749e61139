/* barrier.c — one process-wide memory barrier: a full fence executed by every running thread of
 * the process, which is what lets the emit fast path get away with a compiler barrier. */
#include <linux/membarrier.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

enum { MODE_CHOOSE = 0, MODE_PRIVATE_EXPEDITED = 1, MODE_GLOBAL = 2, MODE_MPROTECT = 3 };

/* Under the runtime lock. */
static int mode = MODE_MPROTECT;
static int forced = MODE_CHOOSE;
static void *page;

static long membarrier(int cmd)
{
#ifdef SYS_membarrier
    return syscall(SYS_membarrier, cmd, 0, 0);
#else
    (void)cmd;
    return -1;
#endif
}

static int choose(void)
{
    long q = membarrier(MEMBARRIER_CMD_QUERY);
    if (q < 0)
        return MODE_MPROTECT;
    /* Registration is per process and cheap to repeat; repeating it also covers a forked child. */
    if ((q & MEMBARRIER_CMD_PRIVATE_EXPEDITED) && membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
        return MODE_PRIVATE_EXPEDITED;
    if (q & MEMBARRIER_CMD_GLOBAL)
        return MODE_GLOBAL;
    return MODE_MPROTECT;
}

void evgen_rt_barrier_init(void)
{
    mode = forced != MODE_CHOOSE ? forced : choose();
}

int evgen_rt_barrier_force(int m)
{
    int ok = 1;
    pthread_mutex_lock(&evgen_rt.lock);
    if (m == MODE_PRIVATE_EXPEDITED)
        ok = choose() == MODE_PRIVATE_EXPEDITED;
    else if (m == MODE_GLOBAL)
        ok = (membarrier(MEMBARRIER_CMD_QUERY) & MEMBARRIER_CMD_GLOBAL) != 0;
    else if (m != MODE_CHOOSE && m != MODE_MPROTECT)
        ok = 0;
    if (ok)
        forced = m;
    pthread_mutex_unlock(&evgen_rt.lock);
    return ok ? 0 : -1;
}

/* Without membarrier(2) (Linux < 4.3, or a seccomp filter refusing it): revoking access to a
 * page this process has touched makes the kernel shoot down the page's TLB entries on every CPU
 * that may be running one of its threads. On x86-64 that is an interrupt to each such CPU, and
 * taking an interrupt serializes the CPU, so each running thread's earlier stores become visible
 * and its later loads happen after the flusher's stores; a thread not running was switched out,
 * itself a full barrier. Architectures that invalidate TLBs by broadcast instead (arm64) give no
 * such guarantee: there this fallback is best effort, and membarrier is the supported path. */
static void mprotect_barrier(void)
{
    long size = sysconf(_SC_PAGESIZE);
    if (!page) {
        page = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED) {
            page = NULL;
            sched_yield();
            return;
        }
    }
    mprotect(page, (size_t)size, PROT_READ | PROT_WRITE);
    __atomic_fetch_add((int *)page, 1, __ATOMIC_SEQ_CST); /* present in this CPU's TLB */
    mprotect(page, (size_t)size, PROT_NONE);
}

void evgen_rt_barrier(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    switch (mode) {
    case MODE_PRIVATE_EXPEDITED:
        if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
            break;
        __attribute__((fallthrough));
    case MODE_GLOBAL:
        if (membarrier(MEMBARRIER_CMD_GLOBAL) == 0)
            break;
        __attribute__((fallthrough));
    case MODE_CHOOSE:
    case MODE_MPROTECT:
    default:
        mprotect_barrier();
        break;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
