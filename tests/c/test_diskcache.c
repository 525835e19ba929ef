/* Tests of the disk cache: round trips, damage handling, names, usage and
 * clear, errors, and several processes sharing one directory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "core/diskcache_internal.h"

#define LEN(a) ((int)(sizeof(a) / sizeof *(a)))
#define HEADER 48  /* the entry format's header size (see diskcache.c) */

static char root[64];  /* short, so paths built from it always fit */

/* Point the cache at root/sub (not created). */
static void use_dir(const char *sub)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/%s", root, sub);
    setenv("EMBER_CACHE_DIR", dir, 1);
    em_diskcache_reset_for_tests();
}

static void entry_path(const char *name, char *out, size_t n)
{
    snprintf(out, n, "%s/%s.emk", em_diskcache_dir(), name);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static int entry_exists(const char *name)
{
    char p[PATH_MAX];
    entry_path(name, p, sizeof p);
    return exists(p);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fwrite(data, 1, n, f) == n);
    fclose(f);
}

static void xor_byte(const char *path, long off, unsigned char mask)
{
    unsigned char c = 0;
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    CHECK(pread(fd, &c, 1, off) == 1);
    c ^= mask;
    CHECK(pwrite(fd, &c, 1, off) == 1);
    close(fd);
}

/* Load name with ident and require exactly want. */
static int load_equals(const char *name, const char *ident, const void *want,
                       size_t want_size)
{
    void *p = NULL;
    size_t n = 12345;
    em_status s = em_diskcache_load(name, ident, strlen(ident), &p, &n);
    int ok = s == EM_OK && p && n == want_size &&
             (want_size == 0 || memcmp(p, want, want_size) == 0);
    if (s != EM_OK)
        fprintf(stderr, "load %s: %s: %s\n", name, em_status_name(s),
                em_last_error());
    free(p);
    return ok;
}

static int load_status(const char *name, const char *ident)
{
    void *p = (void *)1;
    size_t n = 12345;
    em_status s = em_diskcache_load(name, ident, strlen(ident), &p, &n);
    if (s != EM_OK) {
        CHECK(p == NULL && n == 0);  /* outputs cleared on failure */
    }
    free(s == EM_OK ? p : NULL);
    return (int)s;
}

static int count_temps(void)
{
    DIR *d = opendir(em_diskcache_dir());
    struct dirent *de;
    int n = 0;
    if (!d)
        return 0;
    while ((de = readdir(d)))
        n += strncmp(de->d_name, ".tmp-", 5) == 0;
    closedir(d);
    return n;
}

/* ---- directory choice ------------------------------------------------- */

static void test_dir_choice(void)
{
    char want[PATH_MAX + 64], cwd[PATH_MAX];
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;

    use_dir("x");
    snprintf(want, sizeof want, "%s/x", root);
    CHECK(!strcmp(em_diskcache_dir(), want));
    /* Read once: changing the environment alone changes nothing. */
    setenv("EMBER_CACHE_DIR", "/elsewhere", 1);
    CHECK(!strcmp(em_diskcache_dir(), want));

    snprintf(want, sizeof want, "%s/slashes//", root);
    setenv("EMBER_CACHE_DIR", want, 1);
    em_diskcache_reset_for_tests();
    snprintf(want, sizeof want, "%s/slashes", root);
    CHECK(!strcmp(em_diskcache_dir(), want));

    /* A relative EMBER_CACHE_DIR is fixed against the current directory. */
    setenv("EMBER_CACHE_DIR", "rel/cache", 1);
    em_diskcache_reset_for_tests();
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(want, sizeof want, "%s/rel/cache", strcmp(cwd, "/") ? cwd : "");
    CHECK(!strcmp(em_diskcache_dir(), want));

    unsetenv("EMBER_CACHE_DIR");
    snprintf(want, sizeof want, "%s/xdg", root);
    setenv("XDG_CACHE_HOME", want, 1);
    em_diskcache_reset_for_tests();
    snprintf(want, sizeof want, "%s/xdg/ember", root);
    CHECK(!strcmp(em_diskcache_dir(), want));

    /* An empty EMBER_CACHE_DIR counts as unset; a relative XDG_CACHE_HOME
     * is ignored, as the XDG spec says. */
    setenv("EMBER_CACHE_DIR", "", 1);
    setenv("XDG_CACHE_HOME", "relative", 1);
    snprintf(want, sizeof want, "%s/home", root);
    setenv("HOME", want, 1);
    em_diskcache_reset_for_tests();
    snprintf(want, sizeof want, "%s/home/.cache/ember", root);
    CHECK(!strcmp(em_diskcache_dir(), want));

    /* No HOME either: the password database still knows our home. */
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    em_diskcache_reset_for_tests();
    {
        const char *d = em_diskcache_dir();
        size_t n = strlen(d), k = strlen("/.cache/ember");
        CHECK(d[0] == '/' && n > k && !strcmp(d + n - k, "/.cache/ember"));
    }

    if (home)
        setenv("HOME", home, 1);
    else
        unsetenv("HOME");
    free(home);
}

/* ---- round trips ------------------------------------------------------ */

static void test_roundtrip(void)
{
    static const char ident[] = "sm_90|ewise v3|float32 add|-O3";
    char payload[] = "\x7f" "ELF compiled bytes \0 with a zero inside";
    char dir[PATH_MAX], parent[PATH_MAX], p[PATH_MAX];
    unsigned char *big;
    struct stat st;
    mode_t old_mask = umask(022);

    use_dir("a/b/cache");
    snprintf(parent, sizeof parent, "%s/a/b", root);
    snprintf(dir, sizeof dir, "%s/a/b/cache", root);
    CHECK(!exists(parent));
    CHECK_STATUS(load_status("k1", ident), EM_ERR_NOT_FOUND);
    CHECK(!exists(dir));  /* loading creates nothing */

    CHECK_OK(em_diskcache_store("k1", ident, strlen(ident), payload,
                                sizeof payload));
    CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK((st.st_mode & 07777) == 0700);
    CHECK(stat(parent, &st) == 0 && S_ISDIR(st.st_mode));
    entry_path("k1", p, sizeof p);
    CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK(file_size(p) == (long)(HEADER + strlen(ident) + sizeof payload));
    CHECK(load_equals("k1", ident, payload, sizeof payload));
    CHECK(load_equals("k1", ident, payload, sizeof payload));  /* kept */
    CHECK(count_temps() == 0);

    /* Storing again replaces the entry. */
    CHECK_OK(em_diskcache_store("k1", ident, strlen(ident), "new", 3));
    CHECK(load_equals("k1", ident, "new", 3));

    /* Empty identity and empty payload. */
    CHECK_OK(em_diskcache_store("empty", "", 0, NULL, 0));
    CHECK(load_equals("empty", "", "", 0));
    CHECK_STATUS(load_status("empty", "x"), EM_ERR_NOT_FOUND);

    /* A megabyte, to cross any single read/write size. */
    big = malloc(1 << 20);
    CHECK(big != NULL);
    if (big) {
        for (int i = 0; i < 1 << 20; i++)
            big[i] = (unsigned char)(i * 2654435761u >> 13);
        CHECK_OK(em_diskcache_store("Big-Entry_2.v1", ident, strlen(ident),
                                    big, 1 << 20));
        CHECK(load_equals("Big-Entry_2.v1", ident, big, 1 << 20));
        free(big);
    }

    /* An existing directory keeps its mode; a new one is 0700 even under
     * a permissive umask. */
    umask(0);
    snprintf(dir, sizeof dir, "%s/existing", root);
    CHECK(mkdir(dir, 0755) == 0);
    use_dir("existing");
    CHECK_OK(em_diskcache_store("k", "i", 1, "p", 1));
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 07777) == 0755);
    use_dir("fresh0");
    CHECK_OK(em_diskcache_store("k", "i", 1, "p", 1));
    snprintf(dir, sizeof dir, "%s/fresh0", root);
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 07777) == 0700);
    umask(077);
    use_dir("fresh077");
    CHECK_OK(em_diskcache_store("k", "i", 1, "p", 1));
    snprintf(dir, sizeof dir, "%s/fresh077", root);
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 07777) == 0700);
    /* A umask that takes the owner's search bit: mkdir alone gives 0600. */
    umask(0177);
    use_dir("fresh0177");
    CHECK_OK(em_diskcache_store("k", "i", 1, "p", 1));
    snprintf(dir, sizeof dir, "%s/fresh0177", root);
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 07777) == 0700);
    umask(old_mask);
}

static void test_identity(void)
{
    use_dir("ident");
    CHECK_OK(em_diskcache_store("k", "identity-A", 10, "payload-A", 9));
    CHECK_STATUS(load_status("k", "identity-B"), EM_ERR_NOT_FOUND);
    CHECK(strstr(em_last_error(), "different identity") != NULL);
    CHECK(entry_exists("k"));  /* a collision is not damage */
    CHECK_STATUS(load_status("k", "identity-AA"), EM_ERR_NOT_FOUND);
    CHECK_STATUS(load_status("k", "identity-"), EM_ERR_NOT_FOUND);
    CHECK_STATUS(load_status("k", ""), EM_ERR_NOT_FOUND);
    CHECK(entry_exists("k"));
    CHECK(load_equals("k", "identity-A", "payload-A", 9));
}

/* ---- damage ----------------------------------------------------------- */

/* Store a fresh entry, damage it with f(path, arg), and require that a
 * load reports NOT_FOUND as damaged and removes the file. */
static void expect_damage_removed(const char *what, void (*f)(const char *, long),
                                  long arg)
{
    static const char ident[] = "the identity";
    static const char payload[] = "the payload, some bytes long";
    char p[PATH_MAX];
    int failures = check_failures;
    CHECK_OK(em_diskcache_store("victim", ident, strlen(ident), payload,
                                sizeof payload));
    entry_path("victim", p, sizeof p);
    f(p, arg);
    CHECK_STATUS(load_status("victim", ident), EM_ERR_NOT_FOUND);
    CHECK(strstr(em_last_error(), "damaged") != NULL);
    CHECK(strstr(em_last_error(), p) != NULL);
    CHECK(!exists(p));
    if (check_failures != failures)
        fprintf(stderr, "  (damage: %s %ld)\n", what, arg);
    /* The caller recompiles and stores a good one. */
    CHECK_OK(em_diskcache_store("victim", ident, strlen(ident), payload,
                                sizeof payload));
    CHECK(load_equals("victim", ident, payload, sizeof payload));
}

static void do_truncate(const char *path, long size)
{
    if (size < 0)
        size += file_size(path);
    CHECK(truncate(path, size) == 0);
}

static void do_flip(const char *path, long off)
{
    if (off < 0)
        off += file_size(path);
    xor_byte(path, off, 0x20);
}

static void do_append(const char *path, long n)
{
    FILE *f = fopen(path, "ab");
    CHECK(f != NULL);
    if (!f)
        return;
    while (n-- > 0)
        fputc(0, f);
    fclose(f);
}

static void do_garbage(const char *path, long n)
{
    char junk[256];
    for (long i = 0; i < n && i < (long)sizeof junk; i++)
        junk[i] = (char)(i * 7 + 1);
    write_file(path, junk, (size_t)n);
}

static void test_damage(void)
{
    static const long cuts[] = {0, 1, 8, 47, 48, 49, 59, -1};
    /* Offsets into the 48-byte header and the identity/payload after it. */
    static const long flips[] = {0, 7, 8, 11, 12, 15, 16, 23, 24, 31, 32, 40,
                                 47, 48, 48 + 11, 48 + 12, -1};
    int i;
    use_dir("damage");
    for (i = 0; i < LEN(cuts); i++)
        expect_damage_removed("truncate", do_truncate, cuts[i]);
    for (i = 0; i < LEN(flips); i++)
        expect_damage_removed("flip byte", do_flip, flips[i]);
    expect_damage_removed("append", do_append, 1);
    expect_damage_removed("append", do_append, 100);
    expect_damage_removed("garbage", do_garbage, 0);
    expect_damage_removed("garbage", do_garbage, 5);
    expect_damage_removed("garbage", do_garbage, 200);

    /* A foreign file under an entry's name, never stored by us. */
    {
        char p[PATH_MAX];
        entry_path("foreign", p, sizeof p);
        write_file(p, "#!/bin/sh\necho not a kernel\n", 28);
        CHECK_STATUS(load_status("foreign", "x"), EM_ERR_NOT_FOUND);
        CHECK(!exists(p));
    }
}

/* ---- names, errors, usage, clear -------------------------------------- */

static void test_names(void)
{
    char lng[260];
    static const char *const bad[] = {
        "", ".", "..", ".hidden", "a/b", "/abs", "a b", "a\tb", "caf\xc3\xa9",
        "a*", "a:b", "a\\b", "~home", "a+b",
    };
    void *p;
    size_t n;
    int i;
    use_dir("names");
    for (i = 0; i < LEN(bad); i++) {
        CHECK_STATUS(em_diskcache_store(bad[i], "i", 1, "p", 1),
                     EM_ERR_INVALID_VALUE);
        CHECK(strstr(em_last_error(), "bad entry name") != NULL);
        CHECK_STATUS(em_diskcache_load(bad[i], "i", 1, &p, &n),
                     EM_ERR_INVALID_VALUE);
    }
    CHECK_STATUS(em_diskcache_store(NULL, "i", 1, "p", 1),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_diskcache_load(NULL, "i", 1, &p, &n),
                 EM_ERR_INVALID_VALUE);
    CHECK(!exists(em_diskcache_dir()));  /* rejected before touching disk */

    memset(lng, 'k', 200);
    lng[200] = 0;
    CHECK_OK(em_diskcache_store(lng, "i", 1, "p", 1));
    CHECK(load_equals(lng, "i", "p", 1));
    lng[200] = 'k';
    lng[201] = 0;
    CHECK_STATUS(em_diskcache_store(lng, "i", 1, "p", 1), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_diskcache_load(lng, "i", 1, &p, &n), EM_ERR_INVALID_VALUE);

    CHECK_OK(em_diskcache_store("ABC.def-0_9", "i", 1, "p", 1));
    CHECK(load_equals("ABC.def-0_9", "i", "p", 1));
    CHECK_OK(em_diskcache_store("a..b", "i", 1, "p", 1));

    /* Bad pointers. */
    CHECK_STATUS(em_diskcache_store("k", NULL, 3, "p", 1),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_diskcache_store("k", "i", 1, NULL, 3),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_diskcache_load("k", "i", 1, NULL, &n),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_diskcache_load("k", "i", 1, &p, NULL),
                 EM_ERR_INVALID_VALUE);
}

static void touch_old(const char *path, long age_s)
{
    struct timeval tv[2];
    gettimeofday(&tv[0], NULL);
    tv[0].tv_sec -= age_s;
    tv[1] = tv[0];
    CHECK(utimes(path, tv) == 0);
}

static void test_usage_clear(void)
{
    char p[PATH_MAX], dead[PATH_MAX], old[PATH_MAX], live[PATH_MAX];
    char parent_live[PATH_MAX];
    uint64_t entries = 99, bytes = 99;
    int i;

    use_dir("usage");
    CHECK_OK(em_diskcache_usage(&entries, &bytes));  /* no directory yet */
    CHECK(entries == 0 && bytes == 0);
    CHECK_OK(em_diskcache_clear());

    CHECK_OK(em_diskcache_store("one", "ab", 2, "12345", 5));
    CHECK_OK(em_diskcache_store("two", "", 0, "", 0));
    CHECK_OK(em_diskcache_store("three", "abc", 3, "1234567890", 10));
    CHECK_OK(em_diskcache_usage(&entries, &bytes));
    CHECK(entries == 3);
    CHECK(bytes == 3 * HEADER + 2 + 5 + 0 + 3 + 10);

    /* Files that are not ours. */
    snprintf(p, sizeof p, "%s/notes.txt", em_diskcache_dir());
    write_file(p, "keep me", 7);
    snprintf(p, sizeof p, "%s/x.emk.bak", em_diskcache_dir());
    write_file(p, "keep me", 7);
    snprintf(p, sizeof p, "%s/.hidden.emk", em_diskcache_dir());
    write_file(p, "keep me", 7);
    snprintf(p, sizeof p, "%s/dir.emk", em_diskcache_dir());
    CHECK(mkdir(p, 0700) == 0);
    /* Temporary files: of a dead writer, an old one of this (live)
     * process, a fresh one of this process and of our parent. */
    snprintf(dead, sizeof dead, "%s/.tmp-999999999-0-0123456789abcdef.emtmp",
             em_diskcache_dir());
    write_file(dead, "partial", 7);
    snprintf(old, sizeof old, "%s/.tmp-%ld-5-0123456789abcdef.emtmp",
             em_diskcache_dir(), (long)getpid());
    write_file(old, "partial", 7);
    touch_old(old, 2 * 3600);
    snprintf(live, sizeof live, "%s/.tmp-%ld-6-0123456789abcdef.emtmp",
             em_diskcache_dir(), (long)getpid());
    write_file(live, "partial", 7);
    snprintf(parent_live, sizeof parent_live,
             "%s/.tmp-%ld-6-0123456789abcdef.emtmp", em_diskcache_dir(),
             (long)getppid());
    write_file(parent_live, "partial", 7);

    CHECK_OK(em_diskcache_usage(&entries, &bytes));
    CHECK(entries == 3);
    CHECK(bytes == 3 * HEADER + 2 + 5 + 0 + 3 + 10);

    CHECK_OK(em_diskcache_clear());
    CHECK_OK(em_diskcache_usage(&entries, &bytes));
    CHECK(entries == 0 && bytes == 0);
    CHECK(!entry_exists("one") && !entry_exists("two") &&
          !entry_exists("three"));
    CHECK(!exists(dead));
    CHECK(!exists(old));
    CHECK(exists(live));
    CHECK(exists(parent_live));
    snprintf(p, sizeof p, "%s/notes.txt", em_diskcache_dir());
    CHECK(exists(p));
    snprintf(p, sizeof p, "%s/x.emk.bak", em_diskcache_dir());
    CHECK(exists(p));
    snprintf(p, sizeof p, "%s/.hidden.emk", em_diskcache_dir());
    CHECK(exists(p));
    snprintf(p, sizeof p, "%s/dir.emk", em_diskcache_dir());
    CHECK(exists(p));
    CHECK_STATUS(load_status("one", "ab"), EM_ERR_NOT_FOUND);

    /* The cache works again after a clear. */
    for (i = 0; i < 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "e%d", i);
        CHECK_OK(em_diskcache_store(name, name, strlen(name), "x", 1));
    }
    CHECK_OK(em_diskcache_usage(&entries, &bytes));
    CHECK(entries == 5 && bytes == 5 * (HEADER + 2 + 1));
    CHECK_STATUS(em_diskcache_usage(NULL, &bytes), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_diskcache_usage(&entries, NULL), EM_ERR_INVALID_VALUE);
}

static void test_io_errors(void)
{
    char p[PATH_MAX];
    uint64_t entries, bytes;

    /* The cache "directory" is a regular file. */
    snprintf(p, sizeof p, "%s/plainfile", root);
    write_file(p, "x", 1);
    use_dir("plainfile");
    CHECK_STATUS(em_diskcache_store("k", "i", 1, "p", 1), EM_ERR_IO);
    CHECK(strstr(em_last_error(), p) != NULL);
    CHECK(strstr(em_last_error(), "ot a directory") != NULL);
    CHECK(em_last_error_native() == ENOTDIR);
    CHECK_STATUS(load_status("k", "i"), EM_ERR_NOT_FOUND);
    CHECK_STATUS(em_diskcache_usage(&entries, &bytes), EM_ERR_IO);

    /* Under a regular file: the parent cannot be created. */
    use_dir("plainfile/sub/cache");
    CHECK_STATUS(em_diskcache_store("k", "i", 1, "p", 1), EM_ERR_IO);
    CHECK(strstr(em_last_error(), "plainfile") != NULL);

    /* A directory where an entry should be: load ignores it, store fails
     * cleanly and leaves no temporary file behind. */
    use_dir("isdir");
    CHECK_OK(em_diskcache_store("other", "i", 1, "p", 1));
    entry_path("k", p, sizeof p);
    CHECK(mkdir(p, 0700) == 0);
    CHECK_STATUS(load_status("k", "i"), EM_ERR_NOT_FOUND);
    CHECK(exists(p));
    CHECK_STATUS(em_diskcache_store("k", "i", 1, "p", 1), EM_ERR_IO);
    CHECK(strstr(em_last_error(), p) != NULL);
    CHECK(count_temps() == 0);
    CHECK(rmdir(p) == 0);

    /* Permissions mean nothing to root, so only check them otherwise. */
    if (geteuid() != 0) {
        use_dir("readonly");
        CHECK_OK(em_diskcache_store("k", "i", 1, "p", 1));
        CHECK(chmod(em_diskcache_dir(), 0500) == 0);
        CHECK_STATUS(em_diskcache_store("k2", "i", 1, "p", 1), EM_ERR_IO);
        CHECK(em_last_error_native() == EACCES);
        CHECK(load_equals("k", "i", "p", 1));
        CHECK(chmod(em_diskcache_dir(), 0700) == 0);
    }
}

/* ---- concurrency ------------------------------------------------------ */

#define WRITERS 8
#define ROUNDS 200
#define NAME "shared-entry"
#define IDENT "the one identity all processes share"

/* Each writer stores payloads that describe themselves: a 12-byte header
 * (writer, round, size) then bytes derived from those, so a reader can
 * tell a whole payload from a torn or mixed one. */
static size_t make_payload(unsigned char *buf, uint32_t writer, uint32_t round)
{
    uint32_t size = 12 + (writer * 7919u + round * 104729u) % 50000u;
    uint64_t x = (uint64_t)writer << 32 | round | 1;
    memcpy(buf, &writer, 4);
    memcpy(buf + 4, &round, 4);
    memcpy(buf + 8, &size, 4);
    for (uint32_t i = 12; i < size; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        buf[i] = (unsigned char)x;
    }
    return size;
}

static int payload_valid(const unsigned char *p, size_t n)
{
    unsigned char *want;
    uint32_t writer, round;
    int ok;
    if (n < 12)
        return 0;
    memcpy(&writer, p, 4);
    memcpy(&round, p + 4, 4);
    if (writer >= WRITERS || round >= ROUNDS || !(want = malloc(65536)))
        return 0;
    ok = make_payload(want, writer, round) == n && memcmp(want, p, n) == 0;
    free(want);
    return ok;
}

/* 0 on success; prints what went wrong otherwise. */
static int check_load(int must_exist, int *found)
{
    void *p = NULL;
    size_t n = 0;
    em_status s = em_diskcache_load(NAME, IDENT, strlen(IDENT), &p, &n);
    int bad = 0;
    *found = s == EM_OK;
    if (s == EM_OK) {
        bad = !payload_valid(p, n);
        if (bad)
            fprintf(stderr, "pid %ld: loaded a wrong payload (%zu bytes)\n",
                    (long)getpid(), n);
    } else if (s != EM_ERR_NOT_FOUND || must_exist ||
               strstr(em_last_error(), "damaged")) {
        /* Entries are only ever replaced whole: none may look damaged. */
        fprintf(stderr, "pid %ld: load -> %s: %s\n", (long)getpid(),
                em_status_name(s), em_last_error());
        bad = 1;
    }
    free(p);
    return bad;
}

static int writer_main(uint32_t id)
{
    static unsigned char buf[65536];
    int errors = 0, found;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        size_t n = make_payload(buf, id, r);
        em_status s = em_diskcache_store(NAME, IDENT, strlen(IDENT), buf, n);
        if (s != EM_OK) {
            fprintf(stderr, "writer %u: store: %s\n", id, em_last_error());
            errors++;
        }
        /* Our own store just put a whole entry there; someone else's may
         * have replaced it, but never with nothing. */
        errors += check_load(1, &found);
    }
    return errors ? 1 : 0;
}

static int reader_main(void)
{
    int errors = 0, hits = 0, found;
    for (int i = 0; i < 4 * ROUNDS * WRITERS && errors < 10; i++) {
        errors += check_load(0, &found);
        hits += found;
    }
    if (hits == 0)
        fprintf(stderr, "reader: never saw an entry\n");
    return errors ? 1 : 0;
}

static void test_processes(void)
{
    pid_t pids[WRITERS + 1];
    uint64_t entries, bytes;
    int found, i;

    use_dir("shared");
    CHECK_OK(em_diskcache_clear());
    fflush(stdout);
    fflush(stderr);
    for (i = 0; i <= WRITERS; i++) {
        pids[i] = fork();
        CHECK(pids[i] >= 0);
        if (pids[i] == 0)
            _exit(i < WRITERS ? writer_main((uint32_t)i) : reader_main());
    }
    for (i = 0; i <= WRITERS; i++) {
        int status = 0;
        if (pids[i] <= 0)
            continue;
        CHECK(waitpid(pids[i], &status, 0) == pids[i]);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    CHECK(check_load(1, &found) == 0 && found);
    CHECK_OK(em_diskcache_usage(&entries, &bytes));
    CHECK(entries == 1);
    CHECK(count_temps() == 0);
}

/* Threads of one process: the directory is computed once under a race,
 * and temporary names stay unique. */
static void *thread_main(void *arg)
{
    long id = (long)(intptr_t)arg;
    long errors = 0;
    char name[32];
    int found;
    snprintf(name, sizeof name, "thread%ld", id);
    for (int r = 0; r < 100; r++) {
        unsigned char buf[65536];
        size_t n = make_payload(buf, (uint32_t)id, (uint32_t)r);
        errors += em_diskcache_store(name, IDENT, strlen(IDENT), buf, n) != EM_OK;
        errors += em_diskcache_store(NAME, IDENT, strlen(IDENT), buf, n) != EM_OK;
        errors += check_load(1, &found);
        if (!load_equals(name, IDENT, buf, n))
            errors++;
    }
    return (void *)(intptr_t)errors;
}

static void test_threads(void)
{
    pthread_t t[WRITERS];
    uint64_t entries, bytes;
    use_dir("threads");
    for (int i = 0; i < WRITERS; i++)
        CHECK(pthread_create(&t[i], NULL, thread_main, (void *)(intptr_t)i) == 0);
    for (int i = 0; i < WRITERS; i++) {
        void *ret = NULL;
        CHECK(pthread_join(t[i], &ret) == 0);
        CHECK(ret == NULL);
    }
    CHECK_OK(em_diskcache_usage(&entries, &bytes));
    CHECK(entries == WRITERS + 1);
    CHECK(count_temps() == 0);
}

/* ---- main ------------------------------------------------------------- */

static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *de;
        chmod(path, 0700);
        while (d && (de = readdir(d))) {
            char sub[PATH_MAX];
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
            remove_tree(sub);
        }
        if (d)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/ember-test-diskcache-XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    test_dir_choice();
    test_roundtrip();
    test_identity();
    test_damage();
    test_names();
    test_usage_clear();
    test_io_errors();
    test_processes();
    test_threads();
    if (check_failures == 0)
        remove_tree(root);
    else
        fprintf(stderr, "left %s for inspection\n", root);
    unsetenv("EMBER_CACHE_DIR");
    em_diskcache_reset_for_tests();
    return check_report("test_diskcache");
}
