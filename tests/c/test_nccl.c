/* Tests of backend/nccl: the argument checks that come before NCCL is
 * touched, and either a working library (a unique id, its version) or a
 * clear error naming libnccl.so.2 and the pip package, the same on every
 * call. The collectives themselves run on GPUs in
 * tests/python/test_distributed.py. */
#include <string.h>

#include "check.h"
#include "ember/nccl.h"
#include "ember/runtime.h"

int main(void)
{
    unsigned char id[EM_NCCL_ID_BYTES], zero[EM_NCCL_ID_BYTES];
    em_nccl_comm *c = NULL;
    em_device *cpu;
    em_status st;
    int v = 0;
    CHECK(strcmp(em_vendor_name(EM_VENDOR_NCCL), "NCCL") == 0);
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &cpu));
    memset(id, 0, sizeof id);
    memset(zero, 0, sizeof zero);
    CHECK_STATUS(em_nccl_init_rank(cpu, 2, id, 2, &c), EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "rank 2 of 2 ranks") != NULL);
    CHECK_STATUS(em_nccl_call(NULL, EM_NCCL_ALL_REDUCE, NULL, NULL, 0, 7, 0,
                              0, NULL), EM_ERR_INVALID_VALUE);
    CHECK_OK(em_nccl_destroy(NULL, 0));
    st = em_nccl_unique_id(id);
    if (st == EM_OK) {   /* a library: an id, a version, and no cpu comms */
        CHECK(memcmp(id, zero, sizeof id) != 0);
        CHECK_OK(em_nccl_version(&v));
        CHECK(v >= 20000);
        CHECK_STATUS(em_nccl_init_rank(cpu, 1, id, 0, &c), EM_ERR_INVALID_VALUE);
        CHECK(strstr(em_last_error(), "needs a cuda device, got cpu") != NULL);
        return check_report("test_nccl");
    }
    CHECK(st == EM_ERR_UNAVAILABLE);
    CHECK(strstr(em_last_error(), "libnccl.so.2") != NULL);
    CHECK(strstr(em_last_error(), "pip install nvidia-nccl-cu12") != NULL);
    CHECK_STATUS(em_nccl_version(&v), EM_ERR_UNAVAILABLE);
    CHECK(strstr(em_last_error(), "libnccl.so.2") != NULL);
    return check_report("test_nccl");
}
