/* A sticky device fault: a kernel writes through a wild pointer, the
 * context dies, and ember must say so (EM_ERR_DEVICE_FAULT, "restart the
 * process") from then on, without crashing. A process of its own, since
 * the context cannot be revived. Skips without a GPU, as test_cuda does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static const char wild_src[] =
    "extern \"C\" __global__ void wild(int *p)\n"
    "{\n"
    "    p[threadIdx.x] = 42;\n"
    "}\n";

int main(void)
{
    const char *require = getenv("EMBER_TEST_REQUIRE_GPU");
    int n = 0;
    if (em_device_count(EM_DEVICE_CUDA, &n) != EM_OK || n == 0) {
        if (require && strcmp(require, "1") == 0) {
            fprintf(stderr, "no GPU but EMBER_TEST_REQUIRE_GPU=1: %s\n",
                    em_backend_status(EM_DEVICE_CUDA));
            return 1;
        }
        printf("SKIP: %s\n", em_backend_status(EM_DEVICE_CUDA));
        return 77;  /* ctest's SKIP_RETURN_CODE: reported as skipped */
    }
    em_device *dev = NULL;
    CHECK_OK(em_device_get(EM_DEVICE_CUDA, 0, &dev));
    if (!dev)
        return check_report("test_cuda_fault");

    em_code *code = NULL;
    em_module *m = NULL;
    em_function *f = NULL;
    CHECK_OK(em_compile_cuda(wild_src, "wild.cu", NULL, 0, em_device_arch(dev),
                             EM_CODE_CUBIN, &code, NULL));
    if (code)
        CHECK_OK(em_module_load(dev, code, &m));
    em_code_free(code);
    if (m)
        CHECK_OK(em_module_get_function(m, "wild", &f));
    if (!f)
        return check_report("test_cuda_fault");

    void *before = NULL;
    CHECK_OK(em_malloc(dev, 1024, NULL, &before));
    em_stream *s = NULL;
    CHECK_OK(em_stream_create(dev, EM_STREAM_NON_BLOCKING, &s));
    em_event *e = NULL;
    CHECK_OK(em_event_create(dev, EM_EVENT_DEFAULT, &e));

    /* An address no allocation can have. */
    int *wild = (int *)(uintptr_t)0x10;
    void *args[] = { &wild };
    em_dim3 one = { 1, 1, 1 }, block = { 32, 1, 1 };
    CHECK_OK(em_launch(f, one, block, 0, s, args));
    CHECK_STATUS(em_stream_synchronize(s), EM_ERR_DEVICE_FAULT);
    CHECK(strstr(em_last_error(), "CUDA_ERROR_ILLEGAL_ADDRESS") != NULL);
    CHECK(strstr(em_last_error(), "restart") != NULL);
    CHECK(em_last_error_native() == 700);

    /* Every later device call reports the same fault. */
    int host[4] = { 1, 2, 3, 4 };
    CHECK_STATUS(em_memcpy_async(dev, before, host, sizeof host, NULL),
                 EM_ERR_DEVICE_FAULT);
    CHECK(strstr(em_last_error(), "CUDA_ERROR_ILLEGAL_ADDRESS") != NULL);
    CHECK_STATUS(em_memset_async(dev, before, 0, 16, NULL),
                 EM_ERR_DEVICE_FAULT);
    CHECK_STATUS(em_launch(f, one, block, 0, NULL, args),
                 EM_ERR_DEVICE_FAULT);
    CHECK_STATUS(em_device_synchronize(dev), EM_ERR_DEVICE_FAULT);
    CHECK_STATUS(em_event_record(e, s), EM_ERR_DEVICE_FAULT);
    size_t fr, tot;
    CHECK_STATUS(em_device_mem_info(dev, &fr, &tot), EM_ERR_DEVICE_FAULT);
    em_stream *s2 = NULL;
    CHECK_STATUS(em_stream_create(dev, EM_STREAM_DEFAULT, &s2),
                 EM_ERR_DEVICE_FAULT);
    CHECK(strstr(em_last_error(), "restart") != NULL);

    /* Compiling needs no device and still works. */
    code = NULL;
    CHECK_OK(em_compile_cuda(wild_src, "wild.cu", NULL, 0, 90, EM_CODE_PTX,
                             &code, NULL));
    em_code_free(code);

    /* Teardown does not fail: there is nothing left to release. */
    CHECK_OK(em_free(dev, before, NULL));
    CHECK_OK(em_event_destroy(e));
    CHECK_OK(em_stream_destroy(s));
    CHECK_OK(em_module_unload(m));
    return check_report("test_cuda_fault");
}
