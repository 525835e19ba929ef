/* ember core: the on-disk cache of compiled kernels.
 *
 * Entry file "<name>.emk" (integers little-endian):
 *
 *   offset size  field
 *        0    8  magic "EMBERKC\n"
 *        8    4  format version (EM_DC_VERSION)
 *       12    4  reserved, 0
 *       16    8  identity size I
 *       24    8  payload size P
 *       32    8  hash A of (I, P, identity, payload), seed EM_DC_SEED_A
 *       40    8  hash B of the same, seed EM_DC_SEED_B
 *       48    I  identity bytes
 *     48+I    P  payload bytes
 *
 * The file size must be exactly 48 + I + P. Two independent 64-bit hashes
 * make an undetected corruption of a cached binary vanishingly unlikely;
 * they guard integrity, not against an attacker (the directory is 0700).
 *
 * Writers never change a file in place: they write ".tmp-<pid>-<n>-<rand>
 * .emtmp" (O_EXCL, 0600) in the same directory and rename() it over the
 * entry. A reader that has opened an entry therefore sees one immutable
 * file whatever other processes do; racing writers each install a whole
 * file and the last rename wins.
 */
#define _GNU_SOURCE  /* strerrorname_np; harmless elsewhere */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include "ember/diskcache.h"
#include "ember/util.h"
#include "core/diskcache_internal.h"
#include "core/fault.h"

#define EM_DC_MAGIC "EMBERKC\n"
#define EM_DC_VERSION 1u
#define EM_DC_HEADER 48
#define EM_DC_SEED_A 0x656d6265724b4341ull
#define EM_DC_SEED_B 0x3c6ef372fe94f82bull
#define EM_DC_NAME_MAX 200
#define EM_DC_TMP_PREFIX ".tmp-"
#define EM_DC_TMP_SUFFIX ".emtmp"
/* A temporary file this old is abandoned even if its pid is alive: the pid
 * may have been reused, or belong to another host sharing the directory. */
#define EM_DC_TMP_STALE_S 3600

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* ---- the directory ---------------------------------------------------- */

/* Computed on first use under a mutex rather than pthread_once, because
 * tests must be able to forget the path and read the environment again.
 * Taking the lock on every call costs far less than the file I/O that
 * follows each one, and keeps race checkers (helgrind, TSan) quiet. */
static pthread_mutex_t em_dc_lock = PTHREAD_MUTEX_INITIALIZER;
static int em_dc_ready;
static char em_dc_path[PATH_MAX];
static char em_dc_problem[256];  /* why em_dc_path is empty */

static int em_dc_join(char *out, size_t n, const char *a, const char *b)
{
    int w = snprintf(out, n, "%s%s", a, b);
    return w >= 0 && (size_t)w < n;
}

static void em_dc_compute(void)
{
    const char *v;
    int ok = 0;
    em_dc_problem[0] = 0;
    em_dc_path[0] = 0;
    if ((v = em_knob_text(EM_KNOB_CACHE_DIR))) {
        char cwd[PATH_MAX];
        /* Fix a relative path now, so a later chdir() does not move it. */
        if (v[0] != '/' && getcwd(cwd, sizeof cwd))
            ok = snprintf(em_dc_path, sizeof em_dc_path, "%s/%s",
                          strcmp(cwd, "/") ? cwd : "", v) <
                 (int)sizeof em_dc_path;
        else
            ok = em_dc_join(em_dc_path, sizeof em_dc_path, v, "");
    } else if ((v = getenv("XDG_CACHE_HOME")) && v[0] == '/') {
        /* The XDG spec says to ignore a relative XDG_CACHE_HOME. */
        ok = em_dc_join(em_dc_path, sizeof em_dc_path, v, "/ember");
    } else if ((v = getenv("HOME")) && *v) {
        ok = em_dc_join(em_dc_path, sizeof em_dc_path, v, "/.cache/ember");
    } else {
        struct passwd pw, *res = NULL;
        char buf[8192];
        if (getpwuid_r(getuid(), &pw, buf, sizeof buf, &res) == 0 && res &&
            res->pw_dir && res->pw_dir[0])
            ok = em_dc_join(em_dc_path, sizeof em_dc_path, res->pw_dir,
                            "/.cache/ember");
        else {
            snprintf(em_dc_problem, sizeof em_dc_problem,
                     "no disk cache directory: EMBER_CACHE_DIR, "
                     "XDG_CACHE_HOME and HOME are unset");
            return;
        }
    }
    if (!ok) {
        em_dc_path[0] = 0;
        snprintf(em_dc_problem, sizeof em_dc_problem,
                 "no disk cache directory: its path is longer than %d bytes",
                 PATH_MAX - 1);
        return;
    }
    /* Trailing slashes only make messages uglier ("dir//x.emk"). */
    for (size_t n = strlen(em_dc_path); n > 1 && em_dc_path[n - 1] == '/'; n--)
        em_dc_path[n - 1] = 0;
}

const char *em_diskcache_dir(void)
{
    pthread_mutex_lock(&em_dc_lock);
    if (!em_dc_ready) {
        em_dc_compute();
        em_dc_ready = 1;
    }
    pthread_mutex_unlock(&em_dc_lock);
    return em_dc_path;
}

void em_diskcache_reset_for_tests(void)
{
    pthread_mutex_lock(&em_dc_lock);
    em_dc_ready = 0;
    pthread_mutex_unlock(&em_dc_lock);
}

/* ---- helpers ---------------------------------------------------------- */

/* An EM_ERR_IO for errno naming path (and leaf inside it, if not NULL). */
static em_status em_dc_ioerr_in(const char *what, const char *path,
                                const char *leaf)
{
    int e = errno;
    char msg[256];
    const char *name = "";
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
    name = strerrorname_np(e);
    if (!name)
        name = "";
    {
        const char *m = strerror_r(e, msg, sizeof msg);  /* GNU variant */
        if (m != msg)
            snprintf(msg, sizeof msg, "%s", m);
    }
#else
    if (strerror_r(e, msg, sizeof msg) != 0)
        snprintf(msg, sizeof msg, "errno %d", e);
#endif
    return em_error_native(EM_ERR_IO, e, name, "disk cache: %s %s%s%s: %s",
                           what, path, leaf ? "/" : "", leaf ? leaf : "", msg);
}

static em_status em_dc_ioerr(const char *what, const char *path)
{
    return em_dc_ioerr_in(what, path, NULL);
}

static em_status em_dc_check_name(const char *fn, const char *name)
{
    size_t n;
    if (!name)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL name", fn);
    for (n = 0; name[n]; n++) {
        char c = name[n];
        int good = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                   (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '-';
        if (!good || n >= EM_DC_NAME_MAX)
            break;
    }
    if (n == 0 || name[0] == '.' || name[n] != 0)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: bad entry name '%.*s%s': use 1 to %d characters "
                        "of [0-9a-zA-Z_.-], not starting with '.'", fn,
                        EM_DC_NAME_MAX, name, name[n] && n >= EM_DC_NAME_MAX ?
                        "..." : "", EM_DC_NAME_MAX);
    return EM_OK;
}

static int em_dc_entry_path(char *out, size_t n, const char *dir,
                            const char *name)
{
    int w = snprintf(out, n, "%s/%s%s", dir, name, EM_DISKCACHE_SUFFIX);
    return w >= 0 && (size_t)w < n;
}

static void em_put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t em_get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* The sizes go into the hash too, so a header whose sizes were altered
 * consistently with a resized file still fails. */
static uint64_t em_dc_hash(uint64_t seed, const void *ident, uint64_t isize,
                           const void *payload, uint64_t psize)
{
    uint64_t h = em_hash_combine(em_hash_combine(seed, isize), psize);
    h = em_hash64(ident, (size_t)isize, h);
    return em_hash64(payload, (size_t)psize, h);
}

static void em_dc_header(unsigned char *hdr, const void *ident, size_t isize,
                         const void *payload, size_t psize)
{
    memset(hdr, 0, EM_DC_HEADER);
    memcpy(hdr, EM_DC_MAGIC, 8);
    for (int i = 0; i < 4; i++)
        hdr[8 + i] = (unsigned char)(EM_DC_VERSION >> (8 * i));
    em_put64(hdr + 16, isize);
    em_put64(hdr + 24, psize);
    em_put64(hdr + 32, em_dc_hash(EM_DC_SEED_A, ident, isize, payload, psize));
    em_put64(hdr + 40, em_dc_hash(EM_DC_SEED_B, ident, isize, payload, psize));
}

static int em_write_all(int fd, const void *data, size_t n)
{
    const char *p = (const char *)data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Bytes read before end of file, or -1 with errno set. */
static ssize_t em_read_full(int fd, void *data, size_t n)
{
    char *p = (char *)data;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/* Make dir and its missing parents. Only the cache directory itself is
 * chmod'ed: mkdir's mode is filtered by the umask, and a user's existing
 * directory is left as it is. */
static em_status em_dc_mkdirs(const char *dir)
{
    char buf[PATH_MAX];
    struct stat st;
    size_t n = strlen(dir);
    if (n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return em_dc_ioerr("cannot create directory", dir);
    }
    memcpy(buf, dir, n + 1);
    for (size_t i = 1; i < n; i++) {
        if (buf[i] != '/')
            continue;
        buf[i] = 0;
        if (mkdir(buf, 0700) != 0 && errno != EEXIST &&
            !(stat(buf, &st) == 0 && S_ISDIR(st.st_mode)))
            return em_dc_ioerr("cannot create directory", buf);
        buf[i] = '/';
    }
    if (mkdir(dir, 0700) == 0) {
        if (chmod(dir, 0700) != 0)
            return em_dc_ioerr("cannot chmod 0700", dir);
        return EM_OK;
    }
    if (errno != EEXIST)
        return em_dc_ioerr("cannot create directory", dir);
    if (stat(dir, &st) != 0)
        return em_dc_ioerr("cannot stat", dir);
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return em_dc_ioerr("cannot use", dir);
    }
    return EM_OK;
}

static atomic_uint_fast64_t em_dc_counter;

/* Open a new temporary file in dir; its path goes to tmp. The pid and a
 * per-process counter make names unique among live writers; the random
 * part covers pid reuse and hosts sharing a network directory. */
static em_status em_dc_open_temp(const char *dir, char *tmp, size_t n,
                                 int *fd_out)
{
    int made_dir = 0;
    for (int attempt = 0; attempt < 32; attempt++) {
        struct timespec ts;
        uint64_t count = atomic_fetch_add(&em_dc_counter, 1);
        uint64_t r;
        int fd;
        clock_gettime(CLOCK_REALTIME, &ts);
        r = em_hash_combine(em_hash_combine((uint64_t)ts.tv_sec,
                                            (uint64_t)ts.tv_nsec),
                            em_hash_combine((uint64_t)getpid(), count) ^
                                (uint64_t)(uintptr_t)&ts);
        if (snprintf(tmp, n, "%s/%s%ld-%llu-%016llx%s", dir, EM_DC_TMP_PREFIX,
                     (long)getpid(), (unsigned long long)count,
                     (unsigned long long)r, EM_DC_TMP_SUFFIX) >= (int)n) {
            errno = ENAMETOOLONG;
            return em_dc_ioerr("cannot create", dir);
        }
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            *fd_out = fd;
            return EM_OK;
        }
        if (errno == ENOENT && !made_dir) {
            em_status s = em_dc_mkdirs(dir);
            if (s != EM_OK)
                return s;
            made_dir = 1;
            continue;
        }
        if (errno != EEXIST && errno != EINTR)
            return em_dc_ioerr("cannot create", tmp);
    }
    errno = EEXIST;
    return em_dc_ioerr("cannot create a unique temporary file in", dir);
}

/* ---- store and load --------------------------------------------------- */

em_status em_diskcache_store(const char *name, const void *ident,
                             size_t ident_size, const void *payload,
                             size_t size)
{
    char path[PATH_MAX], tmp[PATH_MAX];
    unsigned char hdr[EM_DC_HEADER];
    const char *dir;
    int fd = -1;
    em_status s = em_dc_check_name("em_diskcache_store", name);
    if (s != EM_OK)
        return s;
    if ((ident_size && !ident) || (size && !payload))
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_diskcache_store: NULL %s with size %zu",
                        ident_size && !ident ? "identity" : "payload",
                        ident_size && !ident ? ident_size : size);
    if (ident_size > (uint64_t)INT64_MAX - EM_DC_HEADER - size ||
        size > (uint64_t)INT64_MAX - EM_DC_HEADER)
        return em_error(EM_ERR_OVERFLOW, "em_diskcache_store: entry of "
                        "%zu + %zu bytes is too large", ident_size, size);
    dir = em_diskcache_dir();
    if (!*dir)
        return em_error(EM_ERR_IO, "%s", em_dc_problem);
    if (!em_dc_entry_path(path, sizeof path, dir, name)) {
        errno = ENAMETOOLONG;
        return em_dc_ioerr("cannot store entry", name);
    }

    em_dc_header(hdr, ident, ident_size, payload, size);
    s = em_dc_open_temp(dir, tmp, sizeof tmp, &fd);
    if (s != EM_OK)
        return s;
    if ((em_fault_hit(EM_FAULT_DISK_WRITE) && (errno = ENOSPC)) ||
        em_write_all(fd, hdr, sizeof hdr) != 0 ||
        em_write_all(fd, ident, ident_size) != 0 ||
        em_write_all(fd, payload, size) != 0) {
        s = em_dc_ioerr("cannot write", tmp);
        close(fd);
        unlink(tmp);
        return s;
    }
    /* close() is where some network file systems report a failed write. */
    if (close(fd) != 0) {
        s = em_dc_ioerr("cannot write", tmp);
        unlink(tmp);
        return s;
    }
    if (rename(tmp, path) != 0) {
        s = em_dc_ioerr("cannot rename into place", path);
        unlink(tmp);
        return s;
    }
    return EM_OK;
}

/* A file at path that is not a valid entry: remove it, so the caller's
 * recompile can store a good one. Another process may have renamed a fresh
 * entry over it since we opened it; unlink only if path is still our file
 * (a remaining race costs one cache miss, never a wrong load). */
static em_status em_dc_damaged(int fd, const char *path, const char *why)
{
    struct stat mine, now;
    int removed = 0;
    if (fstat(fd, &mine) == 0 && stat(path, &now) == 0 &&
        mine.st_dev == now.st_dev && mine.st_ino == now.st_ino)
        removed = unlink(path) == 0;
    close(fd);
    em_log(EM_LOG_INFO, "diskcache", "%s entry %s: %s",
           removed ? "removed damaged" : "ignored damaged", path, why);
    return em_error(EM_ERR_NOT_FOUND, "disk cache entry %s is damaged (%s)%s",
                    path, why, removed ? "; removed it" : "");
}

em_status em_diskcache_load(const char *name, const void *ident,
                            size_t ident_size, void **payload, size_t *size)
{
    char path[PATH_MAX], why[160];
    unsigned char hdr[EM_DC_HEADER];
    unsigned char *ibuf = NULL, *pbuf = NULL;
    struct stat st;
    uint64_t isize, psize, total, version;
    const char *dir;
    ssize_t got;
    int fd;
    em_status s = em_dc_check_name("em_diskcache_load", name);
    if (s != EM_OK)
        return s;
    if (!payload || !size || (ident_size && !ident))
        return em_error(EM_ERR_INVALID_VALUE, "em_diskcache_load: NULL %s",
                        !payload ? "payload" : !size ? "size" : "identity");
    *payload = NULL;
    *size = 0;
    dir = em_diskcache_dir();
    if (!*dir)
        return em_error(EM_ERR_NOT_FOUND, "%s", em_dc_problem);
    if (!em_dc_entry_path(path, sizeof path, dir, name))
        return em_error(EM_ERR_NOT_FOUND, "disk cache: path of entry '%s' in "
                        "%s is too long", name, dir);

    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return em_error(EM_ERR_NOT_FOUND, "disk cache: no entry %s", path);
        return em_dc_ioerr("cannot open", path);
    }
    if (fstat(fd, &st) != 0) {
        s = em_dc_ioerr("cannot stat", path);
        close(fd);
        return s;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return em_error(EM_ERR_NOT_FOUND, "disk cache: %s is not a regular "
                        "file; ignored", path);
    }

    got = em_read_full(fd, hdr, sizeof hdr);
    if (got < 0) {
        s = em_dc_ioerr("cannot read", path);
        close(fd);
        return s;
    }
    if (got < EM_DC_HEADER) {
        snprintf(why, sizeof why, "%zd bytes, shorter than the %d-byte header",
                 got, EM_DC_HEADER);
        return em_dc_damaged(fd, path, why);
    }
    if (memcmp(hdr, EM_DC_MAGIC, 8) != 0)
        return em_dc_damaged(fd, path, "not an ember cache entry");
    version = em_get64(hdr + 8) & 0xffffffffu;
    if (version != EM_DC_VERSION || em_get64(hdr + 8) >> 32) {
        snprintf(why, sizeof why, "format version %llu, expected %u",
                 (unsigned long long)version, EM_DC_VERSION);
        return em_dc_damaged(fd, path, why);
    }
    isize = em_get64(hdr + 16);
    psize = em_get64(hdr + 24);
    if (__builtin_add_overflow(isize, psize, &total) ||
        __builtin_add_overflow(total, (uint64_t)EM_DC_HEADER, &total) ||
        total != (uint64_t)st.st_size || isize > SIZE_MAX || psize > SIZE_MAX) {
        snprintf(why, sizeof why, "header says %llu + %llu bytes, file has "
                 "%lld", (unsigned long long)isize, (unsigned long long)psize,
                 (long long)st.st_size);
        return em_dc_damaged(fd, path, why);
    }

    ibuf = malloc(isize ? (size_t)isize : 1);
    pbuf = malloc(psize ? (size_t)psize : 1);
    if (!ibuf || !pbuf) {
        free(ibuf);
        free(pbuf);
        close(fd);
        return em_error(EM_ERR_OUT_OF_MEMORY, "disk cache: cannot allocate "
                        "%llu bytes to load %s", (unsigned long long)total,
                        path);
    }
    got = em_read_full(fd, ibuf, (size_t)isize);
    if (got == (ssize_t)isize)
        got = em_read_full(fd, pbuf, (size_t)psize);
    else if (got >= 0)
        got = -2;  /* short: a concurrent truncate() of our inode */
    if (got == -1) {
        s = em_dc_ioerr("cannot read", path);
        free(ibuf);
        free(pbuf);
        close(fd);
        return s;
    }
    if (got != (ssize_t)psize) {
        free(ibuf);
        free(pbuf);
        return em_dc_damaged(fd, path, "shorter than its header says");
    }
    if (em_get64(hdr + 32) != em_dc_hash(EM_DC_SEED_A, ibuf, isize, pbuf,
                                         psize) ||
        em_get64(hdr + 40) != em_dc_hash(EM_DC_SEED_B, ibuf, isize, pbuf,
                                         psize)) {
        free(ibuf);
        free(pbuf);
        return em_dc_damaged(fd, path, "content hash mismatch");
    }
    close(fd);

    /* A sound entry for another identity: two keys whose names collide.
     * Leave it; the caller compiles and its store replaces it. */
    if (isize != ident_size || (isize && memcmp(ibuf, ident, isize) != 0)) {
        free(ibuf);
        free(pbuf);
        return em_error(EM_ERR_NOT_FOUND, "disk cache: entry %s holds a "
                        "different identity (name collision)", path);
    }
    free(ibuf);
    *payload = pbuf;
    *size = (size_t)psize;
    return EM_OK;
}

/* ---- usage and clear -------------------------------------------------- */

/* "<valid name>.emk" */
static int em_dc_is_entry(const char *fname)
{
    size_t n = strlen(fname), k = strlen(EM_DISKCACHE_SUFFIX);
    char base[EM_DC_NAME_MAX + 1];
    if (n <= k || n - k > EM_DC_NAME_MAX ||
        strcmp(fname + n - k, EM_DISKCACHE_SUFFIX) != 0)
        return 0;
    memcpy(base, fname, n - k);
    base[n - k] = 0;
    for (size_t i = 0; i < n - k; i++) {
        char c = base[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
              (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '-'))
            return 0;
    }
    return base[0] != '.';
}

/* ".tmp-<pid>-<n>-<hex>.emtmp" whose writer is gone or which is old. A
 * live writer's file is left alone: removing it would fail its rename. */
static int em_dc_is_stale_temp(int dfd, const char *fname)
{
    size_t n = strlen(fname), k = strlen(EM_DC_TMP_SUFFIX);
    size_t p = strlen(EM_DC_TMP_PREFIX);
    struct stat st;
    char *end;
    long pid;
    if (n <= p + k || strncmp(fname, EM_DC_TMP_PREFIX, p) != 0 ||
        strcmp(fname + n - k, EM_DC_TMP_SUFFIX) != 0)
        return 0;
    pid = strtol(fname + p, &end, 10);
    if (end == fname + p || *end != '-' || pid <= 0)
        return 0;
    if (fstatat(dfd, fname, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode))
        return 0;
    if (time(NULL) - st.st_mtime > EM_DC_TMP_STALE_S)
        return 1;
    return pid != (long)getpid() && pid <= INT_MAX &&
           kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Visit every entry (and with temps, every stale temporary file) of the
 * cache directory; a missing directory has none. */
static em_status em_dc_scan(int remove, uint64_t *entries, uint64_t *bytes)
{
    const char *dir = em_diskcache_dir();
    em_status s = EM_OK;
    struct dirent *de;
    DIR *d;
    *entries = *bytes = 0;
    if (!*dir)
        return EM_OK;
    d = opendir(dir);
    if (!d) {
        if (errno == ENOENT)
            return EM_OK;
        return em_dc_ioerr("cannot open directory", dir);
    }
    for (;;) {
        struct stat st;
        int entry, temp;
        errno = 0;
        if (!(de = readdir(d))) {
            if (errno && s == EM_OK)
                s = em_dc_ioerr("cannot read directory", dir);
            break;
        }
        entry = em_dc_is_entry(de->d_name);
        temp = !entry && remove && em_dc_is_stale_temp(dirfd(d), de->d_name);
        if (!entry && !temp)
            continue;
        /* Another process may remove or replace it meanwhile: skip. */
        if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (remove && unlinkat(dirfd(d), de->d_name, 0) != 0) {
            if (errno != ENOENT && s == EM_OK)
                s = em_dc_ioerr_in("cannot remove", dir, de->d_name);
            continue;
        }
        if (entry) {
            ++*entries;
            *bytes += (uint64_t)st.st_size;
        }
    }
    closedir(d);
    return s;
}

em_status em_diskcache_usage(uint64_t *entries, uint64_t *bytes)
{
    if (!entries || !bytes)
        return em_error(EM_ERR_INVALID_VALUE, "em_diskcache_usage: NULL %s",
                        entries ? "bytes" : "entries");
    return em_dc_scan(0, entries, bytes);
}

em_status em_diskcache_clear(void)
{
    uint64_t entries, bytes;
    em_status s = em_dc_scan(1, &entries, &bytes);
    if (s == EM_OK)
        em_log(EM_LOG_INFO, "diskcache", "cleared %llu entries (%llu bytes) "
               "from %s", (unsigned long long)entries,
               (unsigned long long)bytes, em_diskcache_dir());
    return s;
}
