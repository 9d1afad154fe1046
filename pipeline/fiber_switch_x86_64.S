# kiln_fiber_switch(void** save_sp, void* load_sp): saves the callee-saved state of the calling
# context on its stack, stores its stack pointer in *save_sp, then resumes the context whose
# stack pointer is load_sp. System V x86-64: rbx, rbp, r12-r15, the x87 control word and the
# MXCSR control bits are callee-saved; everything else the caller already expects clobbered.
# Unlike swapcontext this makes no system call (no signal mask switch), which matters because
# workgroup barriers switch fibers once per subgroup per barrier.
    .text
    .globl kiln_fiber_switch
    .hidden kiln_fiber_switch
    .type kiln_fiber_switch, @function
kiln_fiber_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $16, %rsp
    stmxcsr 8(%rsp)
    fnstcw (%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    fldcw (%rsp)
    ldmxcsr 8(%rsp)
    addq $16, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size kiln_fiber_switch, .-kiln_fiber_switch
    .section .note.GNU-stack,"",@progbits
