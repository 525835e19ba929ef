/* ember internal: execution contexts for the block simulator's fibers.
 *
 * A context is a saved stack pointer: switching pushes the callee-saved
 * registers (and the floating-point control words, which a kernel may
 * change) on the current stack, stores the stack pointer, loads the other
 * one and pops. That is all a cooperative switch between C functions must
 * keep, since the caller of em_sim_ctx_switch already assumes every other
 * register is clobbered. x86-64 and aarch64 have such a switch in
 * assembly (host_sim_ctx.c); other machines use ucontext, which is slower
 * (swapcontext also saves the signal mask, a system call) but portable.
 */
#ifndef EMBER_BACKEND_HOST_SIM_CTX_H
#define EMBER_BACKEND_HOST_SIM_CTX_H

#include <stddef.h>

/* -DEMBER_SIM_UCONTEXT forces the portable switch (to test it, or where
 * the assembly one does not fit, as under a shadow stack). */
#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(EMBER_SIM_UCONTEXT)
#define EM_SIM_CTX_ASM 1
typedef struct em_sim_ctx { void *sp; } em_sim_ctx;
#else
#include <ucontext.h>
typedef struct em_sim_ctx { ucontext_t uc; } em_sim_ctx;
#endif

/* Make c start fn(arg) on the stack [stack, stack + size) when it is first
 * switched to. fn must never return: it leaves by switching away. */
void em_sim_ctx_init(em_sim_ctx *c, char *stack, size_t size,
                     void (*fn)(void *), void *arg);

/* Save the running context in from and continue to. Returns when some
 * context switches back to from. */
void em_sim_ctx_switch(em_sim_ctx *from, em_sim_ctx *to);

#endif
