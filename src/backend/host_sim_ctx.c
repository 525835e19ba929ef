/* ember host backend: the block simulator's context switch.
 *
 * What a switch saves follows each ABI's callee-saved set; everything
 * else the C caller of em_sim_ctx_switch already treats as clobbered.
 *   x86-64 (System V): rbx, rbp, r12-r15, rsp, and the MXCSR and x87
 *     control words (rounding mode, exception masks), which are
 *     callee-saved too.
 *   aarch64 (AAPCS64): x19-x28, the frame pointer x29, the link register
 *     x30, sp, the low halves d8-d15 of v8-v15, and FPCR.
 * A new context's stack is laid out as if it had been switched away from
 * just before a small start routine, which calls fn(arg) with the stack
 * aligned as the ABI wants. Anything else uses ucontext.
 */
#include <stdint.h>
#include <string.h>

#include "backend/host_sim_ctx.h"

#if defined(EM_SIM_CTX_ASM) && defined(__x86_64__)

/* The saved frame, from the stack pointer up: control words (MXCSR in the
 * low 4 bytes, the x87 control word above), r15, r14, r13, r12, rbx, rbp,
 * the return address. */
__asm__(".text\n"
        ".p2align 4\n"
        ".globl em_sim_ctx_switch\n"
        ".type em_sim_ctx_switch, @function\n"
        "em_sim_ctx_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq (%rsi), %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size em_sim_ctx_switch, .-em_sim_ctx_switch\n"
        /* Entered by the switch's ret: fn in r12, arg in r13. */
        ".p2align 4\n"
        ".type em_sim_ctx_start, @function\n"
        "em_sim_ctx_start:\n"
        "    andq $-16, %rsp\n"
        "    movq %r13, %rdi\n"
        "    callq *%r12\n"
        "    ud2\n"
        ".size em_sim_ctx_start, .-em_sim_ctx_start\n");

void em_sim_ctx_start(void);

void em_sim_ctx_init(em_sim_ctx *c, char *stack, size_t size,
                     void (*fn)(void *), void *arg)
{
    uint64_t *p = (uint64_t *)(((uintptr_t)stack + size) & ~(uintptr_t)15);
    uint32_t mxcsr;
    uint16_t fpcw;
    /* A new fiber starts with the creating thread's modes. */
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(fpcw));
    *--p = 0;                            /* start's own return address */
    *--p = (uint64_t)(uintptr_t)em_sim_ctx_start;
    *--p = 0;                            /* rbp */
    *--p = 0;                            /* rbx */
    *--p = (uint64_t)(uintptr_t)fn;      /* r12 */
    *--p = (uint64_t)(uintptr_t)arg;     /* r13 */
    *--p = 0;                            /* r14 */
    *--p = 0;                            /* r15 */
    *--p = (uint64_t)mxcsr | (uint64_t)fpcw << 32;
    c->sp = p;
}

#elif defined(EM_SIM_CTX_ASM) && defined(__aarch64__)

/* The saved frame, 176 bytes from the stack pointer: x19-x30 at 0..95,
 * d8-d15 at 96..159, FPCR at 160. */
__asm__(".text\n"
        ".p2align 4\n"
        ".globl em_sim_ctx_switch\n"
        ".type em_sim_ctx_switch, %function\n"
        "em_sim_ctx_switch:\n"
        "    sub sp, sp, #176\n"
        "    stp x19, x20, [sp, #0]\n"
        "    stp x21, x22, [sp, #16]\n"
        "    stp x23, x24, [sp, #32]\n"
        "    stp x25, x26, [sp, #48]\n"
        "    stp x27, x28, [sp, #64]\n"
        "    stp x29, x30, [sp, #80]\n"
        "    stp d8, d9, [sp, #96]\n"
        "    stp d10, d11, [sp, #112]\n"
        "    stp d12, d13, [sp, #128]\n"
        "    stp d14, d15, [sp, #144]\n"
        "    mrs x9, fpcr\n"
        "    str x9, [sp, #160]\n"
        "    mov x9, sp\n"
        "    str x9, [x0]\n"
        "    ldr x9, [x1]\n"
        "    mov sp, x9\n"
        "    ldp x19, x20, [sp, #0]\n"
        "    ldp x21, x22, [sp, #16]\n"
        "    ldp x23, x24, [sp, #32]\n"
        "    ldp x25, x26, [sp, #48]\n"
        "    ldp x27, x28, [sp, #64]\n"
        "    ldp x29, x30, [sp, #80]\n"
        "    ldp d8, d9, [sp, #96]\n"
        "    ldp d10, d11, [sp, #112]\n"
        "    ldp d12, d13, [sp, #128]\n"
        "    ldp d14, d15, [sp, #144]\n"
        "    ldr x9, [sp, #160]\n"
        "    msr fpcr, x9\n"
        "    add sp, sp, #176\n"
        "    ret\n"
        ".size em_sim_ctx_switch, .-em_sim_ctx_switch\n"
        /* Entered by the switch's ret: fn in x19, arg in x20. */
        ".p2align 4\n"
        ".type em_sim_ctx_start, %function\n"
        "em_sim_ctx_start:\n"
        "    mov x0, x20\n"
        "    blr x19\n"
        "    brk #0\n"
        ".size em_sim_ctx_start, .-em_sim_ctx_start\n");

void em_sim_ctx_start(void);

void em_sim_ctx_init(em_sim_ctx *c, char *stack, size_t size,
                     void (*fn)(void *), void *arg)
{
    uint64_t *p = (uint64_t *)((((uintptr_t)stack + size) & ~(uintptr_t)15) - 176);
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    memset(p, 0, 176);
    p[0] = (uint64_t)(uintptr_t)fn;                /* x19 */
    p[1] = (uint64_t)(uintptr_t)arg;               /* x20 */
    p[11] = (uint64_t)(uintptr_t)em_sim_ctx_start; /* x30, where ret goes */
    p[20] = fpcr;
    c->sp = p;
}

#else

/* makecontext passes int arguments only: the pointers go in halves. */
static void ctx_start(unsigned fh, unsigned fl, unsigned ah, unsigned al)
{
    uintptr_t f = (uintptr_t)(((uint64_t)fh << 32) | fl);
    uintptr_t a = (uintptr_t)(((uint64_t)ah << 32) | al);
    void (*fn)(void *);
    memcpy(&fn, &f, sizeof fn);
    fn((void *)a);
}

void em_sim_ctx_init(em_sim_ctx *c, char *stack, size_t size,
                     void (*fn)(void *), void *arg)
{
    uint64_t f = 0, a = (uint64_t)(uintptr_t)arg;
    memcpy(&f, &fn, sizeof fn);
    getcontext(&c->uc);
    c->uc.uc_stack.ss_sp = stack;
    c->uc.uc_stack.ss_size = size;
    c->uc.uc_link = NULL;
    makecontext(&c->uc, (void (*)(void))ctx_start, 4, (unsigned)(f >> 32),
                (unsigned)f, (unsigned)(a >> 32), (unsigned)a);
}

void em_sim_ctx_switch(em_sim_ctx *from, em_sim_ctx *to)
{
    swapcontext(&from->uc, &to->uc);
}

#endif
