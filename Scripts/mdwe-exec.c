// mdwe-exec: runs a program under the restriction systemd's MemoryDenyWriteExecute=yes applies,
// so Scripts/check-mdwe.sh can prove the server works under it on a machine without systemd.
//
// systemd 254 and later apply it with prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN) (Linux 6.3 and
// later): no mapping may be writable and executable, and no mapping may become executable. Older
// systemd, or an older kernel, use a seccomp filter instead that refuses mmap with PROT_WRITE and
// PROT_EXEC together, any mprotect or pkey_mprotect with PROT_EXEC, and shmat with SHM_EXEC. This
// wrapper applies both (the seccomp filter is the stricter on mprotect), then execs the program;
// both survive execve.
//
//   mdwe-exec PROGRAM [ARGUMENT...]   apply both, then exec PROGRAM
//   mdwe-exec --probe                 apply nothing; report whether this process is restricted
//                                     (run as `mdwe-exec mdwe-exec --probe` to see what an exec inherits)
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#define PR_GET_MDWE 66
#define PR_MDWE_REFUSE_EXEC_GAIN 1
#endif

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "add this architecture's AUDIT_ARCH_ value"
#endif

#define ARG2 (offsetof(struct seccomp_data, args[2]))   // the low 32 bits on little-endian machines
#define REFUSE BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM)
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

static int install_seccomp_filter(void) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0),
        ALLOW,   // other ABIs: SystemCallArchitectures=native refuses them anyway
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 0, 5),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG2),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PROT_WRITE | PROT_EXEC),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PROT_WRITE | PROT_EXEC, 0, 1),
        REFUSE,
        ALLOW,
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mprotect, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pkey_mprotect, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG2),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 5),
        REFUSE,
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_shmat, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG2),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, SHM_EXEC, 0, 1),
        REFUSE,
        ALLOW,
    };
    struct sock_fprog program = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program);
}

// Reports whether this process is restricted; returns 0 only when both attempts are refused.
static int probe(void) {
    int mdwe = prctl(PR_GET_MDWE, 0, 0, 0, 0);
    printf("PR_GET_MDWE: %d%s\n", mdwe, mdwe < 0 ? " (kernel without PR_SET_MDWE)" : "");

    void *both = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap writable+executable: %s\n", both == MAP_FAILED ? strerror(errno) : "allowed");
    int restricted = both == MAP_FAILED;

    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int gained = page != MAP_FAILED && mprotect(page, 4096, PROT_READ | PROT_EXEC) == 0;
    printf("mprotect writable page to executable: %s\n", gained ? "allowed" : strerror(errno));
    restricted &= !gained;

    printf("%s\n", restricted ? "restricted" : "NOT restricted");
    return restricted ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--probe") == 0) return probe();
    if (argc < 2) {
        fprintf(stderr, "usage: mdwe-exec PROGRAM [ARGUMENT...] | mdwe-exec --probe\n");
        return 64;
    }
    if (prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0) {
        // Without it (Linux before 6.3) systemd falls back to the seccomp filter alone, as this does.
        fprintf(stderr, "mdwe-exec: PR_SET_MDWE: %s; applying the seccomp filter only\n", strerror(errno));
    }
    if (install_seccomp_filter() != 0) {
        fprintf(stderr, "mdwe-exec: seccomp: %s\n", strerror(errno));
        return 70;
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "mdwe-exec: %s: %s\n", argv[1], strerror(errno));
    return 127;
}
