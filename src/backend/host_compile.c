/* ember host backend: compiling kernel source with the system C compiler.
 *
 * The source is CUDA C restricted to what kernels/host_prelude.h provides.
 * The front end here does only what a C compiler cannot: it removes the C++
 * token sequence `extern "C"`, notices constructs that need the threads of
 * a block to run together (then the module is cooperative: the prelude's
 * block-simulator part is switched on, `extern __shared__` arrays are
 * given the one storage of dynamic shared memory, and each kernel's
 * launcher runs its blocks as fibers, see host_sim.c), refuses the few
 * such constructs that have no simulation, and appends one launcher per
 * kernel plus the parameter count and sizes that module_get_function
 * reads back with dlsym. The kernels and their
 * parameter types come from the signature reader the runtime also uses
 * (core/ksig.c), so the two never disagree about a kernel. Everything else
 * is the C compiler's job, and its errors point at the user's lines
 * through a #line directive.
 *
 * The compiler is $EMBER_CC (words split on blanks, no shell) or cc, run
 * with posix_spawn (after our own PATH search) in a private temporary
 * directory that is removed afterwards.
 *
 * Users' kernels come with the option EM_HOST_OPTION_CXX: they are CUDA
 * C++, compiled by $EMBER_CXX or c++ against host_prelude.h followed by
 * host_prelude_cxx.h, and their launchers are written by that prelude's
 * templates from each kernel's type (so templates instantiated through
 * EM_HOST_OPTION_NAME_EXPR options, and parameter types the signature
 * reader cannot resolve, need nothing from it).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/backend.h"
#include "core/embedded.h"
#include "core/ksig.h"
#include "backend/host_names.h"
#include "ember/util.h"

extern char **environ;

#define HOST_DEFAULT_NAME "kernel.cu"
/* Frames above this many bytes are reported by the compiler of a
 * cooperative module (see frames_over_limit); smaller ones fit the
 * default fiber stack. */
#define SIM_FRAME_WARN "16384"

/* ---- a growable string ---------------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;          /* an append failed; the content is incomplete */
} sbuf;

static void sb_reserve(sbuf *b, size_t extra)
{
    size_t want, cap;
    char *p;
    if (b->oom)
        return;
    want = b->n + extra + 1;
    if (want <= b->cap)
        return;
    cap = b->cap ? b->cap : 256;
    while (cap < want)
        cap *= 2;
    p = realloc(b->p, cap);
    if (!p) {
        b->oom = 1;
        return;
    }
    b->p = p;
    b->cap = cap;
}

static void sb_add(sbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    if (b->oom)
        return;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void sb_puts(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

static void sb_printf(sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = 1;
        return;
    }
    sb_reserve(b, (size_t)n);
    if (b->oom)
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
}

/* ---- lexical pass ------------------------------------------------------- */

static int line_of(const char *s, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos; i++)
        line += s[i] == '\n';
    return line;
}

static void blank(char *s, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (s[i] != '\n')
            s[i] = ' ';
}

/* Constructs that need a block's threads to run together: the simulated
 * ones (the prelude defines each under __EM_SIM), and those refused. */
static const char *const coop_names[] = {
    "__syncthreads", "__syncthreads_count", "__syncthreads_and",
    "__syncthreads_or", "__syncwarp", "__shfl_sync", "__shfl_up_sync",
    "__shfl_down_sync", "__shfl_xor_sync", "__all_sync", "__any_sync",
    "__ballot_sync", "__activemask", "__match_any_sync", "__match_all_sync",
    "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
    "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
};

/* NULL when id is no cooperative construct; else *supported says whether
 * the simulator has it. */
static const char *cooperative_construct(const char *id, size_t len, int *supported)
{
    /* Warp operations without a mask (gone since CUDA 9) and names the
     * simulator does not know. */
    static const char *const legacy[] = {"__any", "__all"};
    static const char *const prefix[] = {"__syncthreads", "__syncwarp", "__shfl",
                                         "__ballot", "__reduce_", "__match_"};
    *supported = 0;
    if (len < 5 || id[0] != '_' || id[1] != '_')
        return NULL;   /* most identifiers, at once */
    for (size_t k = 0; k < sizeof coop_names / sizeof *coop_names; k++)
        if (strlen(coop_names[k]) == len && !memcmp(id, coop_names[k], len)) {
            *supported = 1;
            return coop_names[k];
        }
    *supported = 0;
    for (size_t k = 0; k < sizeof legacy / sizeof *legacy; k++)
        if (strlen(legacy[k]) == len && !memcmp(id, legacy[k], len))
            return legacy[k];
    for (size_t k = 0; k < sizeof prefix / sizeof *prefix; k++) {
        size_t pl = strlen(prefix[k]);
        if (len >= pl && !memcmp(id, prefix[k], pl))
            return prefix[k];
    }
    return NULL;
}

/* What the lexical pass found. */
typedef struct lex_info {
    const char *coop;    /* the first cooperative construct, or NULL */
    int coop_line;
    int dyn_shared;      /* an `extern __shared__` array */
    size_t *labels;      /* where text is inserted (see lex) */
    char *label_kinds;   /* what: one of EDIT_* */
    int n_labels, cap_labels;
} lex_info;

/* Where the declarator of an `extern __shared__` declaration starting at
 * i ends: after its last `[...]`, else before the `;`. */
static size_t declarator_end(const char *text, size_t i, size_t n)
{
    while (i < n && text[i] != ';' && text[i] != '[' && text[i] != '{' &&
           text[i] != '}' && text[i] != '=')
        i++;
    while (i < n && text[i] == '[') {
        int depth = 0;
        for (; i < n; i++) {
            depth += (text[i] == '[') - (text[i] == ']');
            if (depth == 0)
                break;
        }
        i = i < n ? i + 1 : n;
        size_t j = em_ksig_skip_space(text, i, n);
        if (j < n && text[j] == '[')
            i = j;
    }
    return i;
}

/* What is inserted at a label: the assembler name of the dynamic shared
 * memory, or (C++, in a function) the two halves that turn the array into
 * a pointer to it. */
enum { EDIT_ASM, EDIT_PTR_OPEN, EDIT_PTR_INIT };
static const char *const edit_text[] = {
    " __asm__(\"__em_dyn_shared\")", "(*const ", " = __em_dyn_ptr()",
};

static em_status add_label(lex_info *li, size_t pos, int kind)
{
    if (li->n_labels == li->cap_labels) {
        int cap = li->cap_labels ? 2 * li->cap_labels : 8;
        char *k = realloc(li->label_kinds, (size_t)cap);
        size_t *p;
        if (!k)
            return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading "
                            "extern __shared__ declarations");
        li->label_kinds = k;
        p = realloc(li->labels, (size_t)cap * sizeof *p);
        if (!p)
            return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading "
                            "extern __shared__ declarations");
        li->labels = p;
        li->cap_labels = cap;
    }
    li->label_kinds[li->n_labels] = (char)kind;
    li->labels[li->n_labels++] = pos;
    return EM_OK;
}

/* Make `code` what the C compiler sees: the source with `extern "C"` (and
 * the braces of an `extern "C" { }` block) turned into blanks, every
 * newline kept so that line numbers agree with the user's text, and the
 * `__shared__` of `extern __shared__` turned into __EM_DYNSH (same length;
 * li->labels then says where each such declarator ends, for the assembler
 * name that joins them to the prelude's dynamic shared memory). `text` is
 * the source with comments and literals blanked (directives kept: a macro
 * may hold `extern "C"` or a cooperative construct), `scan` with
 * directives blanked too (braces there do not nest). Returns
 * EM_ERR_NOT_SUPPORTED naming the first construct the simulator lacks. */
static em_status lex(const char *src, const char *text, const char *scan, size_t n,
                     const char *name, int cxx, char *code, lex_info *li)
{
    int depth = 0, extern_depths[32], n_extern = 0;

    memcpy(code, src, n);
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (scan[i] == '{') {
            depth++;
        } else if (scan[i] == '}') {
            /* The brace of an extern "C" block was never counted. */
            if (n_extern && extern_depths[n_extern - 1] == depth) {
                code[i] = ' ';
                n_extern--;
            } else {
                depth--;
            }
        } else if (em_ksig_is_ident(c) && (i == 0 || !em_ksig_is_ident(text[i - 1]))) {
            size_t j = i;
            const char *what;
            int supported;
            while (j < n && em_ksig_is_ident(text[j]))
                j++;
            if ((what = cooperative_construct(text + i, j - i, &supported))) {
                if (!supported)
                    return em_error(EM_ERR_NOT_SUPPORTED,
                                    "'%.*s' at %s:%d is not supported by the "
                                    "CPU block simulator (it runs "
                                    "__syncthreads*, __syncwarp, __shfl*_sync, "
                                    "__all/__any/__ballot_sync, __activemask, "
                                    "__match_*_sync and __reduce_*_sync; the "
                                    "forms without _sync were removed in CUDA "
                                    "9)", (int)(j - i), text + i, name,
                                    line_of(src, i));
                if (!li->coop) {
                    li->coop = what;
                    li->coop_line = line_of(src, i);
                }
            }
            if (em_ksig_word_at(text, i, n, "extern")) {
                /* The literal "C" is blank in text: read it from src. */
                size_t k = em_ksig_skip_space(src, j, n);
                if (k + 3 <= n && !memcmp(src + k, "\"C\"", 3) &&
                    (k + 3 == n || !em_ksig_is_ident(src[k + 3]))) {
                    size_t b = em_ksig_skip_space(src, k + 3, n);
                    blank(code, i, k + 3);
                    if (b < n && src[b] == '{' && n_extern < 32) {
                        code[b] = ' ';
                        extern_depths[n_extern++] = depth;
                        j = b + 1;
                    } else {
                        j = k + 3;
                    }
                } else if (em_ksig_word_at(text, (k = em_ksig_skip_space(text, j, n)), n,
                                   "__shared__")) {
                    /* (text, not src: a comment may sit between.) */
                    size_t end = declarator_end(text, k + 10, n);
                    em_status st;
                    if (cxx && depth > 0) {
                        /* g++ drops the assembler name of a block-scope
                         * extern in a template: `extern __shared__ T
                         * s[];` becomes `T (*const s) = __em_dyn_ptr();`,
                         * a pointer to the block's dynamic shared memory
                         * (host_prelude_cxx.h), made when the line runs. */
                        size_t b = k + 10, e, nm;
                        while (b < end && text[b] != '[')
                            b++;
                        for (e = b; e < end && text[e] != ']'; e++)
                            ;
                        for (nm = b; nm > k + 10 && !em_ksig_is_ident(text[nm - 1]); nm--)
                            ;
                        for (; nm > k + 10 && em_ksig_is_ident(text[nm - 1]); nm--)
                            ;
                        if (b >= end || e >= end || nm <= k + 10)
                            return em_error(EM_ERR_COMPILE, "%s:%d: cannot read "
                                            "the extern __shared__ declaration",
                                            name, line_of(src, i));
                        blank(code, i, i + 6);
                        blank(code, k, k + 10);
                        blank(code, b, e + 1);
                        code[b] = ')';
                        if ((st = add_label(li, nm, EDIT_PTR_OPEN)) != EM_OK ||
                            (st = add_label(li, end, EDIT_PTR_INIT)) != EM_OK)
                            return st;
                    } else {
                        if ((st = add_label(li, end, EDIT_ASM)) != EM_OK)
                            return st;
                        memcpy(code + k, "__EM_DYNSH", 10);
                    }
                    if (!li->coop) {
                        li->coop = "extern __shared__";
                        li->coop_line = line_of(src, i);
                    }
                    li->dyn_shared = 1;
                    j = k + 10;
                }
            }
            i = j - 1;
        }
    }
    return EM_OK;
}

/* ---- kernel signatures -------------------------------------------------- */

/* The first kernel the launchers cannot be written for, as the error. */
static em_status check_kernels(const em_ksig *sig)
{
    for (int k = 0; k < sig->n_kernels; k++) {
        const em_ksig_kernel *ks = &sig->kernels[k];
        if (ks->status == EM_ERR_NOT_SUPPORTED)
            return em_error(ks->status, "%s, which the host backend does not "
                            "support: pass a pointer", ks->why);
        if (ks->status != EM_OK)
            return em_error(ks->status, "%s", ks->why);
    }
    if (sig->status != EM_OK)
        return em_error(sig->status, "%s", sig->why);
    return EM_OK;
}

/* ---- the translation unit ----------------------------------------------- */

static void add_line_directive(sbuf *b, const char *file)
{
    sb_puts(b, "\n#line 1 \"");
    for (const char *p = file; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_add(b, "\\", 1);
        if (*p != '\n' && *p != '\r')
            sb_add(b, p, 1);
    }
    sb_puts(b, "\"\n");
}

/* Kernel K's parameter count and sizes, exported (visibility vis) for the
 * loader to check launches against. */
static void add_param_table(sbuf *b, const em_ksig_kernel *k, const char *vis)
{
    sb_printf(b, "\n%s const int __em_nparams_%s = %d;\n", vis, k->name,
              k->n_params);
    sb_printf(b, "%s const size_t __em_psizes_%s[] = {", vis, k->name);
    for (int p = 0; p < k->n_params; p++)
        sb_printf(b, "%ssizeof(%s)", p ? ", " : "", k->params[p].type);
    sb_printf(b, "%s};\n", k->n_params ? "" : "0");
}

/* The launcher of kernel K: run every thread of blocks [begin, end) with
 * the arguments the runtime packed, as __em_blocks_K, and export the
 * parameter count and sizes the loader checks launches against. The
 * argument values are read once, before the loops. */
static void add_launcher(sbuf *b, const em_ksig_kernel *k)
{
    const char *vis = "__attribute__((visibility(\"default\")))";
    add_param_table(b, k, vis);
    sb_printf(b, "%s void __em_blocks_%s(void **__em_args, const unsigned "
              "*__em_dims, unsigned long long __em_begin, unsigned long long "
              "__em_end);\n", vis, k->name);
    sb_printf(b, "void __em_blocks_%s(void **__em_args, const unsigned "
              "*__em_dims, unsigned long long __em_begin, unsigned long long "
              "__em_end)\n{\n", k->name);
    for (int p = 0; p < k->n_params; p++)
        sb_printf(b, "    %s __em_p%d = *(%s *)__em_args[%d];\n", k->params[p].type,
                  p, k->params[p].type, p);
    sb_printf(b, "    (void)__em_args;\n"
              "    __EM_FOR_EACH_THREAD(__em_dims, __em_begin, __em_end)\n"
              "        %s(", k->name);
    for (int p = 0; p < k->n_params; p++)
        sb_printf(b, "%s__em_p%d", p ? ", " : "", p);
    sb_puts(b, ");\n}\n");
}

/* The launcher of kernel K in a cooperative module: the argument values
 * in a closure, a function that runs one thread of the current block
 * (with the closure and a linear thread index, from a fiber), and
 * __em_sim2_K, which sets each block's coordinates and hands it to the
 * simulator (host_sim.h). */
static void add_sim_launcher(sbuf *b, const em_ksig_kernel *k)
{
    const char *vis = "__attribute__((visibility(\"default\")))";
    add_param_table(b, k, vis);
    sb_printf(b, "struct __em_cl_%s {", k->name);
    for (int p = 0; p < k->n_params; p++)
        sb_printf(b, " %s p%d;", k->params[p].type, p);
    sb_puts(b, " char __em_end; };\n");
    sb_printf(b, "static void __em_thread_%s(void *__em_v, unsigned __em_t)\n{\n"
              "    struct __em_cl_%s *__em_c = (struct __em_cl_%s *)__em_v;\n"
              "    (void)__em_c;\n"
              "    __em_set_thread(__em_t);\n    %s(", k->name, k->name,
              k->name, k->name);
    for (int p = 0; p < k->n_params; p++)
        sb_printf(b, "%s__em_c->p%d", p ? ", " : "", p);
    sb_puts(b, ");\n}\n");
    sb_printf(b, "%s int __em_sim2_%s(void *__em_l, const struct __em_sim_ops "
              "*__em_o, void **__em_args, const unsigned *__em_dims, unsigned "
              "long long __em_begin, unsigned long long __em_end);\n", vis,
              k->name);
    sb_printf(b, "int __em_sim2_%s(void *__em_l, const struct __em_sim_ops "
              "*__em_o, void **__em_args, const unsigned *__em_dims, unsigned "
              "long long __em_begin, unsigned long long __em_end)\n{\n"
              "    struct __em_cl_%s __em_c = {", k->name, k->name);
    for (int p = 0; p < k->n_params; p++)
        sb_printf(b, "*(%s *)__em_args[%d], ", k->params[p].type, p);
    sb_printf(b, "0};\n"
              "    (void)__em_args;\n"
              "    __em_sim = __em_o;\n"
              "    for (unsigned long long __em_b = __em_begin; __em_b < __em_end; "
              "__em_b++) {\n"
              "        __em_set_block(__em_dims, __em_b);\n"
              "        if (__em_o->run_block(__em_l, __em_thread_%s, &__em_c, "
              "__em_dims, __em_b))\n"
              "            return 1;\n"
              "    }\n    return 0;\n}\n", k->name);
}

/* ---- options ------------------------------------------------------------ */

/* Does an option mean something to a C compiler? NVRTC's own options
 * (--std=c++17, -arch=sm_90, --use_fast_math, -default-device, -fmad=,
 * -ftz=, -maxrregcount=, -lineinfo, -rdc, ...) are dropped: they select
 * things the host does not have. */
static int host_option(const char *o)
{
    static const char *const nvrtc_f[] = {"-fmad", "-ftz", "-fprec"};
    if (o[0] != '-' || o[1] == '-')
        return 0;
    switch (o[1]) {
    case 'D': case 'U': case 'I': case 'O': case 'W': case 'w': case 'g':
        if (o[1] == 'g' && strcmp(o, "-g") && strncmp(o, "-gdwarf", 7) &&
            strncmp(o, "-g1", 3) && strncmp(o, "-g2", 3) && strncmp(o, "-g3", 3))
            return 0;
        return 1;
    case 'f':
        for (size_t k = 0; k < sizeof nvrtc_f / sizeof *nvrtc_f; k++)
            if (!strncmp(o, nvrtc_f[k], strlen(nvrtc_f[k])))
                return 0;
        return 1;
    case 'm':
        return strncmp(o, "-maxrregcount", 13) != 0;
    default:
        return 0;
    }
}

/* ---- running the compiler ----------------------------------------------- */

/* The two compilers: C for ember's generated kernels, C++ for users'. */
typedef struct compiler_kind {
    const char *what;       /* "C compiler", for messages */
    em_knob env;            /* the variable that overrides it */
    const char *dflt;
    const char *package;    /* what to install */
} compiler_kind;

static const compiler_kind c_compiler = {"C compiler", EM_KNOB_CC, "cc", "gcc"};
static const compiler_kind cxx_compiler = {"C++ compiler", EM_KNOB_CXX, "c++", "g++"};

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (d) {
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                unlinkat(dirfd(d), e->d_name, 0);
        closedir(d);
    }
    rmdir(dir);
}

static em_status write_file(const char *path, const char *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return em_error_native(EM_ERR_IO, errno, "errno",
                               "cannot create %s: %s", path, strerror(errno));
    while (n) {
        ssize_t w = write(fd, data, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = errno;
            close(fd);
            return em_error_native(EM_ERR_IO, e, "errno", "cannot write %s: %s",
                                   path, strerror(e));
        }
        data += w;
        n -= (size_t)w;
    }
    if (close(fd))
        return em_error_native(EM_ERR_IO, errno, "errno", "cannot write %s: %s",
                               path, strerror(errno));
    return EM_OK;
}

/* Read a whole file into malloc'd memory, NUL-terminated. */
static em_status read_file(const char *path, char **data, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    size_t got = 0;
    char *p;
    if (fd < 0 || fstat(fd, &sb)) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return em_error_native(EM_ERR_IO, e, "errno", "cannot read %s: %s",
                               path, strerror(e));
    }
    p = malloc((size_t)sb.st_size + 1);
    if (!p) {
        close(fd);
        return em_error(EM_ERR_OUT_OF_MEMORY, "cannot allocate %lld bytes for %s",
                        (long long)sb.st_size + 1, path);
    }
    while (got < (size_t)sb.st_size) {
        ssize_t r = read(fd, p + got, (size_t)sb.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    p[got] = 0;
    *data = p;
    *size = got;
    return EM_OK;
}

/* The executable that execvp would run for `name`, searched here so that
 * a missing compiler is reported the same way whatever the libc's
 * posix_spawn does on a failed exec (some report it only as exit 127). */
static int find_program(const char *name, char *out, size_t n)
{
    const char *path = getenv("PATH"), *p;
    struct stat sb;
    if (strchr(name, '/')) {
        snprintf(out, n, "%s", name);
        return !stat(out, &sb) && S_ISREG(sb.st_mode) && !access(out, X_OK);
    }
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (p = path;; p++) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        /* An empty PATH entry means the current directory. */
        if ((size_t)snprintf(out, n, "%.*s%s%s", (int)len, p, len ? "/" : "",
                             name) < n &&
            !stat(out, &sb) && S_ISREG(sb.st_mode) && !access(out, X_OK))
            return 1;
        if (!e)
            return 0;
        p = e;
    }
}

/* Run argv with stdout and stderr going to log_path; *status is the wait
 * status, or -1 when it is lost (a program that sets SIGCHLD to SIG_IGN
 * has its children reaped by the kernel). EM_ERR_UNAVAILABLE when the
 * program cannot be started. */
static em_status spawn_wait(char **argv, const char *log_path, int *status,
                            const compiler_kind *ck)
{
    char exe[PATH_MAX];
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int rc;
    if (!find_program(argv[0], exe, sizeof exe))
        return em_error(EM_ERR_UNAVAILABLE, "%s '%s' not found: "
                        "install %s or set %s", ck->what, argv[0], ck->package,
                        em_knob_name(ck->env));
    if (posix_spawn_file_actions_init(&fa))
        return em_error(EM_ERR_OUT_OF_MEMORY, "posix_spawn_file_actions_init failed");
    rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc)
        rc = posix_spawn_file_actions_addopen(&fa, 1, log_path,
                                              O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (!rc)
        rc = posix_spawn_file_actions_adddup2(&fa, 1, 2);
    if (!rc)
        rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc == ENOENT || rc == EACCES || rc == ENOTDIR)
        return em_error_native(EM_ERR_UNAVAILABLE, rc, "errno",
                               "%s '%s' not found: install %s or set %s",
                               ck->what, argv[0], ck->package, em_knob_name(ck->env));
    if (rc)
        return em_error_native(EM_ERR_UNAVAILABLE, rc, "errno",
                               "cannot start %s '%s': %s", ck->what, argv[0],
                               strerror(rc));
    while (waitpid(pid, status, 0) < 0) {
        if (errno == ECHILD) {
            *status = -1;
            break;
        }
        if (errno != EINTR)
            return em_error_native(EM_ERR_INTERNAL, errno, "errno",
                                   "waitpid for %s '%s': %s", ck->what, argv[0],
                                   strerror(errno));
    }
    return EM_OK;
}

/* Split $EMBER_CC (or "cc"), or the C++ compiler's variable, into words;
 * argv[0..*n) point into *store. */
static em_status compiler_words(const compiler_kind *ck, char **store, char ***words,
                                int *n)
{
    const char *env = em_knob_text(ck->env);
    char *s, *save = NULL, **w;
    int cap = 4, k = 0;
    if (!env)
        env = ck->dflt;
    s = strdup(env);
    w = malloc((size_t)cap * sizeof *w);
    if (!s || !w) {
        free(s);
        free(w);
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading %s",
                        em_knob_name(ck->env));
    }
    for (char *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (k == cap) {
            char **nw = realloc(w, (size_t)(cap *= 2) * sizeof *w);
            if (!nw) {
                free(s);
                free(w);
                return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading %s",
                                em_knob_name(ck->env));
            }
            w = nw;
        }
        w[k++] = t;
    }
    if (!k) {
        free(s);
        free(w);
        return em_error(EM_ERR_INVALID_VALUE, "%s='%s' names no compiler",
                        em_knob_name(ck->env), env);
    }
    *store = s;
    *words = w;
    *n = k;
    return EM_OK;
}

/* The flags every host kernel is built with. -O2 rather than -O3: the
 * compile is on the user's critical path the first time a kernel runs, and
 * GCC's -O2 already vectorises cheap loops. -march=native (added in
 * run_compiler when the CPU could be identified): without it GCC targets
 * the x86-64 baseline, SSE2, and max/argmax ran 2-4x slower than NumPy's
 * AVX2/AVX-512 loops; the CPU's identity is part of the kernel cache key
 * (the host device's arch, em_host_cpu_arch), so a cache shared between
 * machines never hands one CPU another's instructions. -ffp-contract=off:
 * with FMA available GCC would fuse a * b + c, which rounds once where
 * NumPy rounds twice. -fno-math-errno: CUDA's math functions set no
 * errno, and errno stops sqrt from vectorising. -fno-trapping-math: a
 * float compare may then be if-converted into a select (CUDA has no
 * floating-point traps either), which the branch-free exp needs. -fno-strict-aliasing:
 * CUDA code commonly reinterprets buffers through pointer casts. Hidden
 * visibility keeps the user's globals out of the dynamic symbol table;
 * launchers opt back in. */
static const char *const host_flags[] = {
    "-std=gnu11", "-O2", "-fPIC", "-shared", "-fno-strict-aliasing",
    "-fno-math-errno", "-fno-trapping-math", "-ffp-contract=off",
    "-fvisibility=hidden",
};
#define N_HOST_FLAGS ((int)(sizeof host_flags / sizeof *host_flags))

/* C++ (users' kernels) replaces the first flag and adds these. C++17 is
 * NVRTC's default dialect. __device__ functions and variables are visible
 * in C++ (so RawModule.get_global finds them): -fno-semantic-interposition
 * lets calls to them still be inlined. Device code has no exceptions and
 * no RTTI. */
static const char *const host_cxx_flags[] = {
    "-std=gnu++17", "-fno-semantic-interposition", "-fno-exceptions", "-fno-rtti",
};
#define N_HOST_CXX_FLAGS ((int)(sizeof host_cxx_flags / sizeof *host_cxx_flags))

/* A nonzero 31-bit digest of the CPU model and instruction-set flags
 * from /proc/cpuinfo, or 0 when they cannot be read (then kernels are
 * built for the baseline and cached under arch 0). Read once. The host
 * preludes are in the digest too: a module built with another prelude
 * (whose interface with the library, the block simulator's say, may
 * differ) is then never taken from the disk cache; so are $EMBER_CC and
 * $EMBER_CXX as the process started with, for modules another compiler
 * built. (The language is in the cache key as an option.) */
static int cpu_arch;
static pthread_once_t cpu_arch_once = PTHREAD_ONCE_INIT;

static void read_cpu_arch(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    uint64_t h = 0;
    int seen = 0;
    if (!f)
        return;
    while (fgets(line, sizeof line, f) && seen < 2) {
        /* x86 says "model name" and "flags", arm64 "CPU part" and
         * "Features"; the first processor's lines describe them all. */
        if (!strncmp(line, "model name", 10) || !strncmp(line, "flags", 5) ||
            !strncmp(line, "CPU part", 8) || !strncmp(line, "Features", 8)) {
            h = em_hash64(line, strlen(line), h);
            seen++;
        }
    }
    fclose(f);
    if (seen) {
        const char *cc = em_knob_text(EM_KNOB_CC), *cxx = em_knob_text(EM_KNOB_CXX);
        h = em_hash64(em_embedded_host_prelude_h,
                      strlen(em_embedded_host_prelude_h), h);
        h = em_hash64(em_embedded_host_prelude_cxx_h,
                      strlen(em_embedded_host_prelude_cxx_h), h);
        h = em_hash64(cc ? cc : "", cc ? strlen(cc) + 1 : 0, h);
        h = em_hash64(cxx ? cxx : "", cxx ? strlen(cxx) + 1 : 0, h);
        cpu_arch = (int)(h & 0x7fffffff) | 1;
    }
}

int em_host_cpu_arch(void)
{
    pthread_once(&cpu_arch_once, read_cpu_arch);
    return cpu_arch;
}

static em_status run_compiler(const char *c_path,
                              const char *so_path, const char *log_path,
                              const char *const *options, int n_options,
                              const char *name, int native, int sim,
                              const char *sim_define, int cxx, char **log)
{
    const compiler_kind *ck = cxx ? &cxx_compiler : &c_compiler;
    char *store = NULL, **cc = NULL, **argv = NULL;
    int n_cc = 0, argc = 0, status = 0;
    em_status st;
    size_t log_size;

    *log = NULL;
    st = compiler_words(ck, &store, &cc, &n_cc);
    if (st != EM_OK)
        return st;
    /* Ours: at most 11 beyond the compiler, its flags and the options. */
    argv = malloc((size_t)(n_cc + N_HOST_FLAGS + N_HOST_CXX_FLAGS + 2 * n_options + 16) *
                  sizeof *argv);
    if (!argv) {
        st = em_error(EM_ERR_OUT_OF_MEMORY, "out of memory building compiler arguments");
        goto done;
    }
    for (int k = 0; k < n_cc; k++)
        argv[argc++] = cc[k];
    for (int k = 0; k < N_HOST_FLAGS; k++)
        argv[argc++] = (char *)(cxx && k == 0 ? host_cxx_flags[0] : host_flags[k]);
    for (int k = 1; cxx && k < N_HOST_CXX_FLAGS; k++)
        argv[argc++] = (char *)host_cxx_flags[k];
    if (native) {
        argv[argc++] = "-march=native";
#if defined(__x86_64__) || defined(__i386__)
        /* GCC 12's SLP vectoriser crashed (an internal compiler error)
         * on some elementwise kernels with AVX-512; AVX2 is most of the
         * gain for these memory-bound loops. */
        argv[argc++] = "-mno-avx512f";
#endif
    }
    /* A fiber's stack has one guard page below it: a frame larger than a
     * page must touch each of its pages in turn, or an overflow could
     * skip the guard and land in the next fiber's stack. */
    if (sim) {
        argv[argc++] = "-fstack-clash-protection";
        argv[argc++] = "-Wframe-larger-than=" SIM_FRAME_WARN;
    }
    /* After ours, so that the user's -O3 or -g wins. */
    for (int k = 0; k < n_options; k++) {
        const char *o = options[k];
        if (!o)
            continue;
        if ((!strcmp(o, "-D") || !strcmp(o, "-U") || !strcmp(o, "-I")) &&
            k + 1 < n_options && options[k + 1]) {
            argv[argc++] = (char *)o;
            argv[argc++] = (char *)options[++k];
        } else if (host_option(o)) {
            argv[argc++] = (char *)o;
        } else if (em_log_enabled(EM_LOG_DEBUG)) {
            em_log(EM_LOG_DEBUG, "host", "compiling %s: option '%s' ignored "
                   "(not a %s option)", name, o, ck->what);
        }
    }
    if (sim) {
        /* Frame sizes are information here, never a failure. */
        argv[argc++] = "-Wno-error=frame-larger-than=";
        if (sim_define)
            argv[argc++] = (char *)sim_define;
    }
    argv[argc++] = "-o";
    argv[argc++] = (char *)so_path;
    argv[argc++] = (char *)c_path;
    argv[argc++] = "-lm";
    argv[argc] = NULL;

    st = spawn_wait(argv, log_path, &status, ck);
    if (st != EM_OK)
        goto done;
    if (read_file(log_path, log, &log_size) != EM_OK) {
        *log = strdup("");
        if (!*log) {
            st = em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading the compiler log");
            goto done;
        }
    }
    if (status == -1) {
        /* No exit status: judge by the output, which a failed compile
         * does not leave behind. */
        if (access(so_path, R_OK))
            st = em_error(EM_ERR_COMPILE, "compiling %s with '%s' failed:\n%s",
                          name, cc[0], *log);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        /* How some libcs report an exec that failed after the search. */
        st = em_error(EM_ERR_UNAVAILABLE, "%s '%s' could not be run "
                      "(exit status 127): install %s or set %s\n%s",
                      ck->what, cc[0], ck->package, em_knob_name(ck->env), *log);
    } else if (!WIFEXITED(status)) {
        st = em_error(EM_ERR_COMPILE, "%s '%s' killed by signal %d "
                      "compiling %s\n%s", ck->what, cc[0],
                      WIFSIGNALED(status) ? WTERMSIG(status) : 0, name, *log);
    } else if (WEXITSTATUS(status) != 0) {
        st = em_error(EM_ERR_COMPILE, "compiling %s with '%s' failed (exit "
                      "status %d):\n%s", name, cc[0], WEXITSTATUS(status), *log);
    }
done:
    free(argv);
    free(cc);
    free(store);
    return st;
}

/* ---- fiber stacks --------------------------------------------------------- */

/* The sum of the frame sizes the compiler reported as larger than
 * SIM_FRAME_WARN: GCC says "the frame size of N bytes is larger than",
 * Clang "stack frame size (N) exceeds limit". A bound on what a chain of
 * those functions can use, when none recurses; 0 when none was reported. */
static unsigned long long frames_over_limit(const char *log)
{
    static const char *const keys[] = {"frame size of ", "stack frame size ("};
    unsigned long long sum = 0;
    for (size_t k = 0; log && k < sizeof keys / sizeof *keys; k++)
        for (const char *p = strstr(log, keys[k]); p; p = strstr(p + 1, keys[k])) {
            char *end;
            unsigned long long v = strtoull(p + strlen(keys[k]), &end, 10);
            if (end != p + strlen(keys[k]))
                sum += v;
        }
    return sum;
}

/* ---- C++: users' kernels -------------------------------------------------- */

/* CUDA's own headers that kernels include for what the prelude already
 * declares (__half, the vector types, the built-in variables): their
 * #include lines are blanked (newlines kept) rather than failing to be
 * found. text has comments and literals blanked, directives kept. */
static void blank_cuda_includes(const char *src, const char *text, char *code, size_t n)
{
    static const char *const headers[] = {
        "cuda_fp16.h", "cuda_runtime.h", "device_launch_parameters.h",
        "vector_types.h", "vector_functions.h", "device_functions.h",
    };
    for (size_t i = 0; i < n; i++) {
        size_t j = i, e;
        if (text[i] != '#')
            continue;
        while (j > 0 && (text[j - 1] == ' ' || text[j - 1] == '\t'))
            j--;
        if (j > 0 && text[j - 1] != '\n')
            continue;   /* not the first thing on its line */
        j = em_ksig_skip_space(text, i + 1, n);
        if (!em_ksig_word_at(text, j, n, "include"))
            continue;
        for (e = j; e < n && src[e] != '\n'; e++)
            ;
        j = em_ksig_skip_space(src, j + 7, e);
        if (j >= e || (src[j] != '<' && src[j] != '"'))
            continue;
        for (size_t k = 0; k < sizeof headers / sizeof *headers; k++) {
            size_t len = strlen(headers[k]);
            if (j + 1 + len < e && !memcmp(src + j + 1, headers[k], len) &&
                src[j + 1 + len] == (src[j] == '<' ? '>' : '"')) {
                blank(code, i, e);
                break;
            }
        }
        i = e;
    }
}

/* The name expressions among the options (pointers into them), and
 * whether the source is C++. */
typedef struct host_lang {
    int cxx;
    const char **exprs;
    int n_exprs;
} host_lang;

static em_status read_lang(const char *const *options, int n, host_lang *hl)
{
    size_t pl = strlen(EM_HOST_OPTION_NAME_EXPR);
    memset(hl, 0, sizeof *hl);
    for (int k = 0; k < n; k++) {
        if (!options[k])
            continue;
        if (!strcmp(options[k], EM_HOST_OPTION_CXX)) {
            hl->cxx = 1;
        } else if (!strncmp(options[k], EM_HOST_OPTION_NAME_EXPR, pl)) {
            if (!hl->exprs && !(hl->exprs = malloc((size_t)n * sizeof *hl->exprs)))
                return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading "
                                "name expressions");
            hl->exprs[hl->n_exprs++] = options[k] + pl;
        }
    }
    if (hl->n_exprs && !hl->cxx)
        return em_error(EM_ERR_INVALID_VALUE, "name expressions (%s) need C++ "
                        "source (the %s option)", hl->exprs[0], EM_HOST_OPTION_CXX);
    for (int k = 0; k < hl->n_exprs; k++) {
        const char *e = hl->exprs[k];
        if (!*e || strpbrk(e, "\"\\\n\r;{}"))
            return em_error(EM_ERR_INVALID_VALUE, "name expression '%s' is not "
                            "the name of a kernel (like 'axpy<float>')", e);
    }
    return EM_OK;
}

/* Does the source declare one of <stdint.h>'s names itself (a typedef,
 * a `using` alias or a #define)? NVRTC has no <stdint.h>, so CUDA code
 * often writes `typedef unsigned long long uint64_t;`, which would clash
 * with the system's typedef: the prelude then leaves those names alone
 * (__EM_USER_STDINT). text has comments and literals blanked. */
static int declares_stdint(const char *text, size_t n)
{
    static const char *const names[] = {
        "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
        "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t",
    };
    for (size_t i = 0; i < n; i++) {
        size_t a, b;
        if (!em_ksig_is_ident(text[i]) || (i && em_ksig_is_ident(text[i - 1])))
            continue;
        if (em_ksig_word_at(text, i, n, "typedef")) {
            /* the last identifier before the declaration's ';' */
            for (b = i + 7; b < n && text[b] != ';' && text[b] != '{'; b++)
                ;
            if (b >= n || text[b] == '{')
                continue;
            while (b > i && !em_ksig_is_ident(text[b - 1]))
                b--;
            for (a = b; a > i && em_ksig_is_ident(text[a - 1]); a--)
                ;
        } else if (em_ksig_word_at(text, i, n, "using") ||
                   em_ksig_word_at(text, i, n, "define")) {
            a = em_ksig_skip_space(text, i + (text[i] == 'u' ? 5 : 6), n);
            for (b = a; b < n && em_ksig_is_ident(text[b]); b++)
                ;
        } else {
            continue;
        }
        for (size_t k = 0; k < sizeof names / sizeof *names; k++)
            if (b - a == strlen(names[k]) && !memcmp(text + a, names[k], b - a))
                return 1;
    }
    return 0;
}

/* Is line `line` inside braces (a namespace: kernels cannot be in
 * functions or classes)? code has extern "C" blocks' braces blanked, scan
 * has comments, literals and directives blanked. */
static int nested_at_line(const char *code, const char *scan, size_t n, int line)
{
    int depth = 0, at = 1;
    for (size_t i = 0; i < n && at < line; i++) {
        if (scan[i] == '\n')
            at++;
        else if (scan[i] == '{' && code[i] == '{')
            depth++;
        else if (scan[i] == '}' && code[i] == '}')
            depth--;
    }
    return depth > 0;
}

/* The launchers of a C++ module: one per kernel the signature reader
 * found at namespace scope (not templates, which exist only as instances,
 * nor names defined twice, nor kernels inside a namespace, whose plain
 * name would not resolve here: name expressions reach those), then one
 * per name expression, written by host_prelude_cxx.h's macros from each
 * kernel's type. */
static void add_cxx_launchers(sbuf *b, const em_ksig *sig, const host_lang *hl, int coop,
                              const char *code, const char *scan, size_t n)
{
    char sym[512];
    const char *macro = coop ? "__EM_SIM_KERNEL" : "__EM_KERNEL";
    int first = 1;
    for (int k = 0; k < sig->n_kernels; k++) {
        const em_ksig_kernel *ks = &sig->kernels[k];
        if (ks->templated || ks->ambiguous ||
            nested_at_line(code, scan, n, ks->line) ||
            !em_host_kernel_symbol(ks->name, sym, sizeof sym))
            continue;
        sb_printf(b, "%s(%s, %s)\n", macro, sym, ks->name);
    }
    for (int e = 0; e < hl->n_exprs; e++) {
        int dup = 0;
        for (int k = 0; k < sig->n_kernels && !dup; k++)
            dup = !sig->kernels[k].templated && !sig->kernels[k].ambiguous &&
                  !strcmp(sig->kernels[k].name, hl->exprs[e]);
        for (int f = 0; f < e && !dup; f++)
            dup = !strcmp(hl->exprs[f], hl->exprs[e]);
        if (!dup && em_host_kernel_symbol(hl->exprs[e], sym, sizeof sym))
            sb_printf(b, "%s(%s, %s)\n", macro, sym, hl->exprs[e]);
    }
    /* For the loader's "not found" message. */
    sb_puts(b, "extern \"C\" __EM_EXPORT const char __em_kernel_names[] = \"");
    for (int k = 0; k < sig->n_kernels; k++)
        if (!sig->kernels[k].templated) {
            sb_printf(b, "%s%s", first ? "" : ", ", sig->kernels[k].name);
            first = 0;
        }
    for (int e = 0; e < hl->n_exprs; e++) {
        sb_printf(b, "%s%s", first ? "" : ", ", hl->exprs[e]);
        first = 0;
    }
    sb_puts(b, "\";\n");
}

/* ---- the entry point ---------------------------------------------------- */

em_status em_compile_host(const char *source, const char *name,
                          const char *const *options, int n_options,
                          em_code **out, char **out_log)
{
    size_t n;
    char *code = NULL, *text = NULL, *scan = NULL, *log = NULL, *so = NULL;
    char dir[PATH_MAX], c_path[PATH_MAX + 16], so_path[PATH_MAX + 16],
        log_path[PATH_MAX + 16];
    const char *tmp;
    em_ksig *sig = NULL;
    lex_info li = {0};
    host_lang hl = {0};
    int have_dir = 0, native = em_host_cpu_arch() != 0;
    unsigned long long need;
    sbuf tu = {0};
    size_t so_size = 0;
    em_code *c = NULL;
    em_status st;

    if (out_log)
        *out_log = NULL;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_compile_host: out is NULL");
    *out = NULL;
    if (!source)
        return em_error(EM_ERR_INVALID_VALUE, "em_compile_host: source is NULL");
    if (n_options < 0 || (n_options > 0 && !options))
        return em_error(EM_ERR_INVALID_VALUE, "em_compile_host: %d options "
                        "given with options=%p", n_options, (const void *)options);
    if (!name || !*name)
        name = HOST_DEFAULT_NAME;

    st = read_lang(options, n_options, &hl);
    if (st != EM_OK)
        goto done;
    n = strlen(source);
    code = malloc(n + 1);
    text = malloc(n + 1);
    scan = malloc(n + 1);
    if (!code || !text || !scan) {
        st = em_error(EM_ERR_OUT_OF_MEMORY, "cannot allocate 3 x %zu bytes to "
                      "compile %s", n + 1, name);
        goto done;
    }
    code[n] = text[n] = scan[n] = 0;
    em_ksig_blank(source, n, text, 1);
    em_ksig_blank(source, n, scan, 0);
    st = lex(source, text, scan, n, name, hl.cxx, code, &li);
    if (st != EM_OK)
        goto done;
    if (hl.cxx)
        blank_cuda_includes(source, text, code, n);
    /* The launchers need types as text only: no options, no kinds. */
    st = em_ksig_parse(source, name, NULL, 0, &sig);
    if (st != EM_OK)
        goto done;
    /* C++ launchers take the parameters from each kernel's type: only a
     * source the reader could not get through stops them. */
    if (!hl.cxx)
        st = check_kernels(sig);
    else if (sig->status != EM_OK)
        st = em_error(sig->status, "%s", sig->why);
    if (st != EM_OK)
        goto done;

    if (declares_stdint(text, n))
        sb_puts(&tu, "#define __EM_USER_STDINT 1\n");
    if (li.coop)
        sb_printf(&tu, "#define __EM_SIM 1\n%s", li.dyn_shared
                  ? "#define __EM_SIM_DYN 1\n" : "");
    add_line_directive(&tu, "ember/host_prelude.h");
    sb_puts(&tu, em_embedded_host_prelude_h);
    if (hl.cxx) {
        add_line_directive(&tu, "ember/host_prelude_cxx.h");
        sb_puts(&tu, em_embedded_host_prelude_cxx_h);
    }
    add_line_directive(&tu, name);
    {
        /* The user's code, with each extern __shared__ declarator given
         * the assembler name of the dynamic shared memory. */
        size_t at = 0;
        for (int k = 0; k < li.n_labels; k++) {
            sb_add(&tu, code + at, li.labels[k] - at);
            sb_puts(&tu, edit_text[(int)li.label_kinds[k]]);
            at = li.labels[k];
        }
        sb_add(&tu, code + at, n - at);
    }
    add_line_directive(&tu, "<ember: generated host launchers>");
    if (hl.cxx) {
        add_cxx_launchers(&tu, sig, &hl, li.coop != NULL, code, scan, n);
    } else {
        for (int k = 0; k < sig->n_kernels; k++)
            if (li.coop)
                add_sim_launcher(&tu, &sig->kernels[k]);
            else
                add_launcher(&tu, &sig->kernels[k]);
        /* For the loader's "not found" message. */
        sb_puts(&tu, "\n__attribute__((visibility(\"default\"))) const char "
                "__em_kernel_names[] = \"");
        for (int k = 0; k < sig->n_kernels; k++)
            sb_printf(&tu, "%s%s", k ? ", " : "", sig->kernels[k].name);
        sb_puts(&tu, "\";\n");
    }
    if (tu.oom) {
        st = em_error(EM_ERR_OUT_OF_MEMORY, "out of memory building the "
                      "translation unit of %s (%zu bytes of source)", name, n);
        goto done;
    }

    tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (snprintf(dir, sizeof dir, "%s/ember-cc-XXXXXX", tmp) >= (int)sizeof dir) {
        st = em_error(EM_ERR_INVALID_VALUE, "TMPDIR is too long: %s", tmp);
        goto done;
    }
    if (!mkdtemp(dir)) {
        st = em_error_native(EM_ERR_IO, errno, "errno", "cannot create a "
                             "temporary directory in %s: %s", tmp, strerror(errno));
        goto done;
    }
    have_dir = 1;
    snprintf(c_path, sizeof c_path, "%s/kernel.%s", dir, hl.cxx ? "cpp" : "c");
    snprintf(so_path, sizeof so_path, "%s/kernel.so", dir);
    snprintf(log_path, sizeof log_path, "%s/log.txt", dir);
    st = write_file(c_path, tu.p, tu.n);
    if (st != EM_OK)
        goto done;
    st = run_compiler(c_path, so_path, log_path, options, n_options, name,
                      native, li.coop != NULL, NULL, hl.cxx, &log);
    if (st == EM_ERR_COMPILE && em_host_cpu_arch()) {
        /* A compiler that rejects -march=native, or crashes with it,
         * still gets the portable build; a real error in the source
         * fails again and is reported from this second run. */
        char *first = log;
        log = NULL;
        st = run_compiler(c_path, so_path, log_path, options, n_options, name,
                          0, li.coop != NULL, NULL, hl.cxx, &log);
        native = 0;
        if (st == EM_OK)
            em_log(EM_LOG_WARN, "host", "compiling %s failed with "
                   "-march=native, built for the baseline CPU instead: %.200s",
                   name ? name : "a kernel", first ? first : "");
        free(first);
    }
    if (st == EM_OK && li.coop && (need = frames_over_limit(log)) > 0) {
        /* Large frames: build again with the stack the module's fibers
         * need, which the loader reads back (__em_sim_stack_need). */
        char def[64], *first = log;
        snprintf(def, sizeof def, "-D__EM_SIM_STACK_NEED=%lluULL", need);
        log = NULL;
        st = run_compiler(c_path, so_path, log_path, options, n_options, name,
                          native, 1, def, hl.cxx, &log);
        free(first);
    }
    if (st != EM_OK)
        goto done;
    st = read_file(so_path, &so, &so_size);
    if (st != EM_OK)
        goto done;

    c = malloc(sizeof *c);
    if (!c) {
        st = em_error(EM_ERR_OUT_OF_MEMORY, "cannot allocate em_code");
        goto done;
    }
    c->kind = EM_CODE_HOST;
    c->data = so;
    c->size = so_size;
    c->log = log;
    so = NULL;
    if (out_log) {
        *out_log = strdup(log);
        if (!*out_log) {
            c->log = NULL;
            free(c->data);
            free(c);
            c = NULL;
            st = em_error(EM_ERR_OUT_OF_MEMORY, "cannot copy the compiler log");
            goto done;
        }
    }
    log = NULL;
    *out = c;

done:
    if (st == EM_ERR_COMPILE && out_log && !*out_log) {
        /* The compiler's log, or our own reason when the front end
         * rejected the source before the compiler ran. */
        *out_log = log ? log : strdup(em_last_error());
        log = NULL;
    }
    if (have_dir)
        remove_dir(dir);
    free(log);
    free(so);
    free(tu.p);
    em_ksig_free(sig);
    free(hl.exprs);
    free(li.labels);
    free(li.label_kinds);
    free(code);
    free(text);
    free(scan);
    return st;
}
