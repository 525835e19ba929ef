/* Tests of backend/vendor: where CUDA libraries are looked for, in which
 * order, and what a missing one says. libm stands in for a library that
 * exists everywhere; symbolic links give it the names the search wants. */
#include <dlfcn.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "backend/vendor.h"

static char tmp[64];

/* a link named dir/name to the loader's libm */
static int link_libm(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return symlink("/lib/x86_64-linux-gnu/libm.so.6", p) == 0 ||
           symlink("/usr/lib64/libm.so.6", p) == 0 || symlink("/lib64/libm.so.6", p) == 0;
}

static void test_missing(void)
{
    em_vendor_desc d = {"cuNothing", {"libcunothing.so.99"}, "nvidia-cunothing", 0, 0};
    char path[PATH_MAX] = "", why[1024] = "";
    unsetenv("EMBER_CUDA_LIBS");
    CHECK(!em_vendor_search(&d, NULL, 0, path, sizeof path, why, sizeof why));
    CHECK(strstr(why, "cuNothing") && strstr(why, "libcunothing.so.99"));
    CHECK(strstr(why, "pip install nvidia-cunothing") && strstr(why, "EMBER_CUDA_LIBS"));
}

/* A host library (OpenBLAS's kind) names its pip package, not CUDA. */
static void test_missing_cpu(void)
{
    em_vendor_desc d = {"BLASNothing", {"libblasnothing.so"}, "blas-nothing", 1, 0};
    char path[PATH_MAX] = "", why[1024] = "";
    CHECK(!em_vendor_search(&d, NULL, 0, path, sizeof path, why, sizeof why));
    CHECK(strstr(why, "BLASNothing") && strstr(why, "pip install blas-nothing"));
    CHECK(!strstr(why, "CUDA toolkit") && !strstr(why, "nvidia-"));
}

static void test_order(void)
{
    em_vendor_desc d = {"fake", {"libfake_ember.so.1", "libm.so.6"}, "none", 0, 0};
    char env_dir[256], wheel[128], lib[256];
    char path[PATH_MAX] = "", why[1024] = "";
    const char *dirs[1];
    void *h;

    /* the loader's path: the second soname, with the file it came from */
    h = em_vendor_search(&d, NULL, 0, path, sizeof path, why, sizeof why);
    CHECK(h && strstr(path, "libm"));

    /* a pip-style folder: nvidia/<wheel>/lib/<soname> */
    snprintf(wheel, sizeof wheel, "%s/nvidia", tmp);
    snprintf(lib, sizeof lib, "%s/fakewheel/lib", wheel);
    CHECK(mkdir(wheel, 0700) == 0);
    snprintf(env_dir, sizeof env_dir, "%s/fakewheel", wheel);
    CHECK(mkdir(env_dir, 0700) == 0 && mkdir(lib, 0700) == 0);
    CHECK(link_libm(lib, "libfake_ember.so.1"));
    dirs[0] = wheel;
    h = em_vendor_search(&d, dirs, 1, path, sizeof path, why, sizeof why);
    CHECK(h && !strncmp(path, lib, strlen(lib)));

    /* $EMBER_CUDA_LIBS comes first */
    snprintf(env_dir, sizeof env_dir, "%s/env", tmp);
    CHECK(mkdir(env_dir, 0700) == 0);
    CHECK(link_libm(env_dir, "libfake_ember.so.1"));
    {
        char list[512];
        snprintf(list, sizeof list, "/nonexistent:%s", env_dir);
        setenv("EMBER_CUDA_LIBS", list, 1);
    }
    h = em_vendor_search(&d, dirs, 1, path, sizeof path, why, sizeof why);
    CHECK(h && !strncmp(path, env_dir, strlen(env_dir)));
    unsetenv("EMBER_CUDA_LIBS");
}

static void test_public(void)
{
    void *h = (void *)1;
    CHECK(!strcmp(em_vendor_name(EM_VENDOR_CUFFT), "cuFFT"));
    CHECK(em_vendor_name(EM_VENDOR_COUNT) == NULL && em_vendor_path(EM_VENDOR_COUNT) == NULL);
    CHECK_STATUS(em_vendor_open(EM_VENDOR_COUNT, &h), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_vendor_add_dir(""), EM_ERR_INVALID_VALUE);
    CHECK_OK(em_vendor_add_dir(tmp));
    CHECK_OK(em_vendor_add_dir(tmp));   /* the same folder once */
    /* found or not, the answer is the same each time */
    {
        em_status a = em_vendor_open(EM_VENDOR_CURAND, &h), b;
        void *h2 = NULL;
        b = em_vendor_open(EM_VENDOR_CURAND, &h2);
        CHECK(a == b && h == h2);
        CHECK((a == EM_OK) == (em_vendor_path(EM_VENDOR_CURAND) != NULL));
        if (a != EM_OK)
            CHECK(strstr(em_last_error(), "cuRAND") != NULL);
    }
}

/* em_vendor_bind fills all of a table or none of it, and names a missing
 * function with the file that lacks it. cuRAND is used where this machine
 * has it; without it the binding fails as the open does. */
static void test_bind(void)
{
    struct { void *create, *destroy; } t = {NULL, NULL};
    const em_vendor_sym good[] = {
        {"curandCreateGenerator", offsetof(__typeof__(t), create)},
        {"curandDestroyGenerator", offsetof(__typeof__(t), destroy)}};
    const em_vendor_sym bad[] = {
        {"curandCreateGenerator", offsetof(__typeof__(t), create)},
        {"curandNoSuchFunction", offsetof(__typeof__(t), destroy)}};
    void *h;
    if (em_vendor_open(EM_VENDOR_CURAND, &h) != EM_OK) {
        CHECK_STATUS(em_vendor_bind(EM_VENDOR_CURAND, good, 2, &t),
                     EM_ERR_UNAVAILABLE);
        CHECK(t.create == NULL && t.destroy == NULL);
        return;
    }
    CHECK_STATUS(em_vendor_bind(EM_VENDOR_CURAND, bad, 2, &t),
                 EM_ERR_UNAVAILABLE);
    CHECK(strstr(em_last_error(), "curandNoSuchFunction") != NULL);
    CHECK(t.create == NULL && t.destroy == NULL);   /* none, not half */
    CHECK_OK(em_vendor_bind(EM_VENDOR_CURAND, good, 2, &t));
    CHECK(t.create == dlsym(h, "curandCreateGenerator") && t.destroy != NULL);
}

/* em_vendor_ready binds once and gives every later call the first
 * outcome: the same error, with its message, after the first failure. */
static void test_ready(void)
{
    static struct { void *create, *destroy; } t;
    static const em_vendor_sym bad[] = {
        {"curandCreateGenerator", offsetof(__typeof__(t), create)},
        {"curandNoSuchFunction", offsetof(__typeof__(t), destroy)}};
    static const em_vendor_sym good[] = {
        {"curandCreateGenerator", offsetof(__typeof__(t), create)}};
    static em_vendor_lazy lb = EM_VENDOR_LAZY(EM_VENDOR_CURAND, bad, &t),
                          lg = EM_VENDOR_LAZY(EM_VENDOR_CURAND, good, &t);
    void *h;
    char first[1200];
    CHECK_STATUS(em_vendor_ready(&lb), EM_ERR_UNAVAILABLE);
    snprintf(first, sizeof first, "%s", em_last_error());
    CHECK(first[0] != 0);
    CHECK_STATUS(em_vendor_ready(&lb), EM_ERR_UNAVAILABLE);
    CHECK(strcmp(first, em_last_error()) == 0);
    if (em_vendor_open(EM_VENDOR_CURAND, &h) != EM_OK)
        return;
    CHECK(strstr(first, "curandNoSuchFunction") != NULL);
    CHECK_OK(em_vendor_ready(&lg));
    CHECK_OK(em_vendor_ready(&lg));
    CHECK(t.create == dlsym(h, "curandCreateGenerator"));
}

int main(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/ember_vendor_XXXXXX");
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    test_missing();
    test_missing_cpu();
    test_order();
    test_public();
    test_bind();
    test_ready();
    {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", tmp);
    }
    return check_report("test_vendor");
}
